/**
 * Requests whose head or framing is invalid (RFC 9112 §3.2, §5.1, §6.3), each written by hand on a connection of its
 * own: never served (HDR-008, MUST: every HTTP client and proxy relies on one reading of a message's end), and
 * answered 400 (HDR-009, SHOULD: the status RFC 9112 names).
 */
import { paths } from "../check-kit/helpers.js";
import { wireHeaders } from "../check-kit/wire-headers.js";
import { deploymentBody, plainSource } from "../model/data.js";
import { type Check, type CheckContext, CheckFailure } from "../runner/check.js";
import { WireConnection } from "../target/wire.js";

/**
 * One request spelled byte for byte: what is wrong with it, its text given the connection's Host and base path, and
 * whether HDR-008 judges it (two Host lines are not: Node's own HTTP server serves them, taking the first).
 */
interface BrokenRequest {
  label: string;
  text: (connection: WireConnection) => string;
  neverServed: boolean;
}

/** Header lines in wire form. */
const lines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");

/** The broken requests: a create whose body a server could read two ways, and lists whose head is not well formed. */
function brokenRequests(ctx: CheckContext): BrokenRequest[] {
  const auth = { ...wireHeaders(ctx), Accept: "application/json" };
  const body = JSON.stringify(deploymentBody(ctx.name("framing"), plainSource(ctx.config.hosting)));
  const length = Buffer.byteLength(body);
  const create = (framing: string) => (c: WireConnection) =>
    `POST ${c.basePath}${paths.deployments} HTTP/1.1\r\nHost: ${c.host}\r\n${lines({ ...auth, "Content-Type": "application/json" })}${framing}\r\n${body}`;
  const list = (head: (c: WireConnection) => string) => (c: WireConnection) =>
    `GET ${c.basePath}${paths.providers} HTTP/1.1\r\n${head(c)}${lines(auth)}\r\n`;
  return [
    {
      label: "a create whose Content-Length is not a number",
      text: create("Content-Length: 1e3\r\n"),
      neverServed: true,
    },
    {
      label: "a create with two different Content-Length values",
      text: create(`Content-Length: ${length}\r\nContent-Length: ${length + 7}\r\n`),
      neverServed: true,
    },
    { label: "a list without a Host line", text: list(() => ""), neverServed: true },
    {
      label: "a list with a space between a header name and its colon",
      text: list((c) => `Host: ${c.host}\r\nX-Trace-Id : framing\r\n`),
      neverServed: true,
    },
    {
      label: "a list with two Host lines",
      text: list((c) => `Host: ${c.host}\r\nHost: other.invalid\r\n`),
      neverServed: false,
    },
  ];
}

/** What became of each broken request: the answer's status, or none when the target closed the connection unanswered. */
interface Outcome {
  label: string;
  neverServed: boolean;
  status: number | undefined;
}

/** Sends every broken request once for the area: HDR-008 and HDR-009 judge the same answers. */
async function outcomes(ctx: CheckContext): Promise<Outcome[]> {
  // a program that hands the suite its fetch (an in-process target, D-360) has no connection to write bytes on
  if (ctx.config.fetch) ctx.skip("needs a connection of its own to the target; this run was given a fetch function");
  return ctx.fixture("broken-requests", async () => {
    const seen: Outcome[] = [];
    for (const request of brokenRequests(ctx)) {
      const connection = await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs);
      try {
        const text = request.text(connection);
        connection.writeText(text);
        const status = await connection.read(text.split(" ", 1)[0]!).then(
          (answer) => answer.status,
          () => undefined,
        );
        seen.push({ label: request.label, neverServed: request.neverServed, status });
      } finally {
        connection.close();
      }
    }
    return seen;
  });
}

export const requestFramingChecks: Check[] = [
  {
    id: "HDR-008",
    level: "MUST",
    tags: ["headers", "framing", "createDeployment", "listOAuthProviders"],
    statement:
      "A request whose framing or head is invalid (a Content-Length that is not a number, two different Content-Length values, no Host line, a space before a header's colon) is never served: it gets a 4xx or the connection closes unanswered, never a 2xx, 3xx or 5xx",
    specRef:
      "interface-spec: Bodies are JSON (a body is read by one framing); RFC 9112 §3.2 (Host), §5.1 (no space before the colon), §6.3 (an invalid Content-Length is an unrecoverable error)",
    needs: ["server"],
    async run(ctx) {
      const served = (await outcomes(ctx)).filter(
        ({ neverServed, status }) => neverServed && status !== undefined && (status < 400 || status > 499),
      );
      if (served.length > 0)
        throw new CheckFailure(served.map(({ label, status }) => `${label} was answered ${status}`).join("; "));
    },
  },
  {
    id: "HDR-009",
    level: "SHOULD",
    tags: ["headers", "framing", "createDeployment", "listOAuthProviders"],
    statement:
      "Each of those requests, and a list with two Host lines, is answered 400, as RFC 9112 says, rather than served or left unanswered",
    specRef: "D-373 (RFC 9112 §3.2, §5.1, §6.3: the server MUST respond 400)",
    needs: ["server"],
    async run(ctx) {
      const other = (await outcomes(ctx)).filter(({ status }) => status !== 400);
      if (other.length > 0)
        throw new CheckFailure(
          other
            .map(
              ({ label, status }) => `${label} was ${status === undefined ? "left unanswered" : `answered ${status}`}`,
            )
            .join("; "),
        );
    },
  },
];
