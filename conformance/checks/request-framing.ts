/**
 * Requests whose head or framing is invalid (RFC 9112 §3.2, §5.1, §6.3), each written by hand on a connection of its
 * own: never served (HDR-008, MUST: every HTTP client and proxy relies on one reading of a message's end), and
 * answered 400 (HDR-009, SHOULD: the status RFC 9112 names); and requests the profile answers with a protocol status of
 * its own (HDR-010, SHOULD).
 */
import { paths } from "../check-kit/helpers.js";
import { wireProblemFaults } from "../check-kit/problem-faults.js";
import { answerOnWire } from "../check-kit/wire-answers.js";
import { headerLines, jsonWireHeaders, wireHeaders } from "../check-kit/wire-headers.js";
import { deploymentBody, plainSource } from "../model/data.js";
import { type Check, type CheckContext, CheckFailure } from "../runner/check.js";
import type { WireAnswer, WireConnection } from "../target/wire.js";

/**
 * One request spelled byte for byte: what is wrong with it, its text given the connection's Host and base path, and
 * whether HDR-008 judges it (two Host lines are not: Node's own HTTP server serves them, taking the first).
 */
interface BrokenRequest {
  label: string;
  text: (connection: WireConnection) => string;
  neverServed: boolean;
}

/** The broken requests: a create whose body a server could read two ways, and lists whose head is not well formed. */
function brokenRequests(ctx: CheckContext): BrokenRequest[] {
  const auth = jsonWireHeaders(ctx);
  const body = JSON.stringify(deploymentBody(ctx.name("framing"), plainSource(ctx.config.hosting)));
  const length = Buffer.byteLength(body);
  const create = (framing: string) => (c: WireConnection) =>
    `POST ${c.basePath}${paths.deployments} HTTP/1.1\r\nHost: ${c.host}\r\n${headerLines({ ...auth, "Content-Type": "application/json" })}${framing}\r\n${body}`;
  const list = (head: (c: WireConnection) => string) => (c: WireConnection) =>
    `GET ${c.basePath}${paths.providers} HTTP/1.1\r\n${head(c)}${headerLines(auth)}\r\n`;
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

/** A request the profile answers with a status of its own (D-76, D-115, D-310, D-373, D-397, D-412), and that status. */
interface ProtocolRequest {
  label: string;
  text: (connection: WireConnection) => string;
  /**
   * `not 400`: a Host value RFC 3986 allows, which only a faulty parser refuses (a proxy may route it elsewhere);
   * `not 2xx`: a target that is no path of the contract as sent, which only a server that rewrites targets serves.
   */
  status: number | "not 400" | "not 2xx";
  specRef: string;
}

/** The `:port` a connection's Host value ends with, or nothing on the scheme's default port. */
const portOf = (c: WireConnection) => /:\d+$/.exec(c.host)?.[0] ?? "";

/** Lists of providers whose head the profile answers in a set way: one served, the others refused with a problem. */
function protocolRequests(ctx: CheckContext): ProtocolRequest[] {
  const auth = headerLines(jsonWireHeaders(ctx));
  const head = (version: string, extra: (c: WireConnection) => string) => (c: WireConnection) =>
    `GET ${c.basePath}${paths.providers}${version}\r\n${extra(c)}${auth}\r\n`;
  // a key sent as a bearer token (D-231) has no X-Api-Key line to repeat
  const key = wireHeaders(ctx)["X-Api-Key"];
  const requests: ProtocolRequest[] = [
    { label: "an HTTP/1.0 list without a Host line", text: head(" HTTP/1.0", () => ""), status: 200, specRef: "D-373" },
    {
      label: "a list whose Host value is a list",
      text: head(" HTTP/1.1", () => "Host: a.example, b.example\r\n"),
      status: 400,
      specRef: "D-412",
    },
    { label: "an HTTP/1.1 list without a Host line", text: head(" HTTP/1.1", () => ""), status: 400, specRef: "D-310" },
    {
      label: "a list whose Host is an IPv6 literal",
      text: head(" HTTP/1.1", (c) => `Host: [::1]${portOf(c)}\r\n`),
      status: "not 400",
      specRef: "D-412 (RFC 3986 §3.2.2: an IP literal in brackets)",
    },
    {
      label: "a list whose Host names no port",
      text: head(" HTTP/1.1", (c) => `Host: ${c.host.slice(0, c.host.length - portOf(c).length)}\r\n`),
      status: "not 400",
      specRef: "D-412 (RFC 9110 §7.2: the port is optional)",
    },
    {
      label: "a list with two Host lines",
      text: head(" HTTP/1.1", (c) => `Host: ${c.host}\r\nHost: other.invalid\r\n`),
      status: 400,
      specRef: "D-310",
    },
    {
      label: "a list expecting 100-nonsense",
      text: head(" HTTP/1.1", (c) => `Host: ${c.host}\r\nExpect: 100-nonsense\r\n`),
      status: 417,
      specRef: "D-115",
    },
    {
      label: "a list whose head is over 16 KiB",
      text: head(" HTTP/1.1", (c) => `Host: ${c.host}\r\nX-Pad: ${"a".repeat(17_000)}\r\n`),
      status: 431,
      specRef: "D-76",
    },
    {
      label: "a list whose target is 8,192 bytes and whose head is over 16 KiB",
      text: (c) => {
        const path = `${c.basePath}${paths.providers}?pad=`;
        return `GET ${path}${"a".repeat(8192 - path.length)} HTTP/1.1\r\nHost: ${c.host}\r\nX-Pad: ${"a".repeat(17_000)}\r\n${auth}\r\n`;
      },
      status: 431,
      specRef: "D-76, D-115 (414 only for a target above 8 KiB)",
    },
    {
      label: "a CONNECT request",
      text: (c) => `CONNECT ${c.host} HTTP/1.1\r\nHost: ${c.host}\r\n${auth}\r\n`,
      status: 400,
      specRef: "D-76 (CONNECT: this server is not a proxy)",
    },
    {
      label: "a list whose target has a backslash for its last slash",
      text: (c) =>
        `GET ${c.basePath}${paths.providers.replace(/\/(?=[^/]*$)/, "\\")} HTTP/1.1\r\nHost: ${c.host}\r\n${auth}\r\n`,
      status: "not 2xx",
      specRef: "D-270 (the target is judged as the server received it; RFC 3986 §3.3 has no backslash in a path)",
    },
    {
      label: "a list whose request line has no HTTP version",
      text: (c) => `GET ${c.basePath}${paths.providers}\r\n\r\n`,
      status: 400,
      specRef: "D-310",
    },
  ];
  if (key !== undefined)
    requests.push({
      label: "a list with its key on two X-Api-Key lines",
      text: head(" HTTP/1.1", (c) => `Host: ${c.host}\r\nX-Api-Key: ${key}\r\n`),
      status: 400,
      specRef: "D-397",
    });
  return requests;
}

/** What became of each broken request: the answer, or none when the target closed the connection unanswered. */
interface Outcome {
  label: string;
  neverServed: boolean;
  answer: WireAnswer | undefined;
}

/**
 * Sends every broken request. HDR-008 and HDR-009 each send their own (five connections): a check that judged
 * answers another check had fetched would run none of the server's code itself, so a mutation run's per-check
 * coverage (D-360) would never run it against the mutants only it can tell apart.
 */
async function outcomes(ctx: CheckContext): Promise<Outcome[]> {
  const seen: Outcome[] = [];
  for (const request of brokenRequests(ctx))
    seen.push({
      label: request.label,
      neverServed: request.neverServed,
      answer: await answerOnWire(ctx, request.text),
    });
  return seen;
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
        ({ neverServed, answer }) =>
          neverServed && answer !== undefined && (answer.status < 400 || answer.status > 499),
      );
      if (served.length > 0)
        throw new CheckFailure(served.map(({ label, answer }) => `${label} was answered ${answer?.status}`).join("; "));
    },
  },
  {
    id: "HDR-009",
    level: "SHOULD",
    tags: ["headers", "framing", "createDeployment", "listOAuthProviders"],
    statement:
      "Each of those requests, and a list with two Host lines, is answered 400, as RFC 9112 says, rather than served or left unanswered, with an application/problem+json detail of the contract's (a type, a title, the status and a detail)",
    specRef: "D-373 (RFC 9112 §3.2, §5.1, §6.3: the server MUST respond 400), D-16 (problem details)",
    needs: ["server"],
    async run(ctx) {
      const wrong = (await outcomes(ctx)).flatMap(({ label, answer }) => {
        if (answer?.status !== 400)
          return [`${label} was ${answer === undefined ? "left unanswered" : `answered ${answer.status}`}`];
        const [fault] = wireProblemFaults(answer);
        return fault === undefined ? [] : [`${label}: ${fault}: ${answer.body.slice(0, 200)} (D-16)`];
      });
      if (wrong.length > 0) throw new CheckFailure(wrong.join("; "));
    },
  },
  {
    id: "HDR-010",
    level: "SHOULD",
    tags: ["headers", "framing", "errors", "listOAuthProviders"],
    statement:
      "Requests written by hand get the profile's protocol answers: an HTTP/1.0 list without Host is served 200; a Host that is an IPv6 literal or names no port is not refused 400; a target with a backslash for a slash is not served; an HTTP/1.1 one without Host, two Host lines, a Host value that is a list, two X-Api-Key lines, a CONNECT or a request line without a version is 400, an unknown Expect 417 and a head over 16 KiB 431 (also when its target is 8,192 bytes, within the 414 bound), each an application/problem+json detail with a type of the contract's, a title, the status and a detail",
    specRef:
      "D-76 (431), D-115 (417), D-310 (no version), D-373 (RFC 9112 §3.2: Host is required of HTTP/1.1), D-397 (two X-Api-Key lines), D-412 (a Host list is refused; an IP literal or a Host without a port is not), D-16 (problem details)",
    needs: ["server"],
    async run(ctx) {
      const wrong: string[] = [];
      for (const request of protocolRequests(ctx)) {
        const answer = await answerOnWire(ctx, request.text);
        if (request.status === "not 400") {
          if (answer === undefined || answer.status === 400)
            wrong.push(
              `${request.label} was ${answer ? "answered 400" : "left unanswered"}, though its Host value is valid (${request.specRef})`,
            );
          continue;
        }
        if (request.status === "not 2xx") {
          if (answer && answer.status >= 200 && answer.status < 300)
            wrong.push(
              `${request.label} was served ${answer.status}, as if it were the path with a slash (${request.specRef})`,
            );
          continue;
        }
        if (answer?.status !== request.status) {
          wrong.push(
            `${request.label} was ${answer ? `answered ${answer.status}` : "left unanswered"}, expected ${request.status} (${request.specRef})`,
          );
          continue;
        }
        if (request.status < 400) continue;
        const [fault] = wireProblemFaults(answer);
        if (fault !== undefined) wrong.push(`${request.label}: ${fault}: ${answer.body.slice(0, 200)} (D-16)`);
      }
      if (wrong.length > 0) throw new CheckFailure(wrong.join("; "));
    },
  },
];
