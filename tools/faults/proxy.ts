/** An HTTP proxy in front of a reference server that injects one fault by rewriting requests or responses. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import pino from "pino";
import { send, writeAnswer } from "../../common/http-forward.js";
import { listen } from "../../common/listen.js";
import { bodyLimitBytes, HttpProblem, hostFieldCount } from "../../server/engine.js";
import { answerClientErrors } from "../../server/errors/client-errors.js";

/** A request as the proxy sees it; a fault may change any part before it is forwarded. */
export interface ProxyRequest {
  method: string;
  url: URL;
  /** The request-target as the client wrote it: origin-form (`/v2/...`) or absolute-form (`http://host/v2/...`). */
  target: string;
  headers: Record<string, string>;
  /** Header names as the client wrote them (Node lowercases the names in `headers`). */
  rawHeaderNames: string[];
  /** The body as UTF-8 text (a byte that is not UTF-8 reads as U+FFFD). */
  body: string;
  /** The body's bytes as received: forwarded unless the fault changed `body` or `json`, or these bytes. */
  rawBody: Buffer;
  /** The parsed JSON body, when it is JSON. */
  json: unknown;
  /** The connection it came on: the same object for every request of one kept-alive connection. */
  connection: object;
}

/** A response as the proxy returns it; a fault may change any part. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Lets a fault ask the upstream server something of its own (e.g. another tenant's list). */
type Upstream = (
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body?: string | Buffer,
) => Promise<ProxyResponse>;

/** One deliberate fault: at most one request rewrite and one response rewrite. */
export interface Fault {
  id: string;
  /** What is wrong, in one line. */
  description: string;
  /** The level of the rule it breaks: a MUST fault has to be caught by a MUST check. */
  level: "MUST" | "SHOULD";
  /** The hosting kind of the server it runs in front of (default cloud): a self-hosted rule needs a self-hosted server. */
  hosting?: "cloud" | "self_hosted";
  /** Rewrites the request, or answers it directly (returning a response). */
  request?(req: ProxyRequest): ProxyResponse | undefined;
  /** How many problems (failures grouped by cause, D-243) the run may read it as, at least and at most (D-384). */
  problems?: [number, number];
  /** Whether a body declared past the server's 1 MiB is read to its end before anything is answered (default: not waited for, as the server does). */
  awaitsDeclaredBody?: boolean;
  /** Whether the requests its HTTP parser refuses get Node's bare 400, with no body (default: the server's problem, D-16). */
  bareParserRefusals?: boolean;
  /** Whether answers carry a Date (default true: the proxy dates a fault's own answers as a server does). */
  dated?: boolean;
  /** Rewrites the response. */
  response?(
    req: ProxyRequest,
    res: ProxyResponse,
    upstream: Upstream,
  ): Promise<ProxyResponse | undefined> | ProxyResponse | undefined;
}

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the proxy on 127.0.0.1, port 0. */
export async function startFaultProxy(
  upstreamUrl: string,
  fault: Fault | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstreamTarget = new URL(upstreamUrl);
  const upstream: Upstream = async (method, pathAndQuery, headers, body) => {
    const res = await send(upstreamTarget, {
      method,
      path: pathAndQuery,
      headers,
      ...(method === "GET" || method === "HEAD" ? {} : { body }),
    });
    return { status: res.status, headers: plainHeaders(res.headers), body: res.body.toString("utf8") };
  };
  // a head of any size is passed on (a target past 16 KiB is the server's 414, D-115, not the proxy's 431)
  const server: Server = createServer(
    { maxHeaderSize: 1024 * 1024, requireHostHeader: false },
    (incoming, outgoing) => {
      // two Host lines, or none in HTTP/1.1, are the reference server's 400 (D-310, D-373), which it answers as a problem
      // (Node's own check of the second would be a bare 400): the proxy answers them as its upstream would, so that no
      // fault seems to serve them
      const hostLines = hostFieldCount(incoming.rawHeaders);
      if (hostLines > 1 || (hostLines === 0 && incoming.httpVersion === "1.1")) {
        const problem = new HttpProblem(
          "malformedRequest",
          `The request has ${hostLines === 0 ? "no Host line" : "two Host lines"}.`,
        );
        outgoing.writeHead(problem.status, { "content-type": "application/problem+json", connection: "close" });
        outgoing.end(JSON.stringify(problem.toProblem()));
        return;
      }
      const answer = async (rawBody: Buffer) => {
        try {
          const body = rawBody.toString("utf8");
          const req: ProxyRequest = {
            method: incoming.method ?? "GET",
            url: new URL(incoming.url ?? "/", "http://proxy.invalid"),
            target: incoming.url ?? "/",
            headers: plainHeaders(incoming.headers),
            rawHeaderNames: incoming.rawHeaders.filter((_, i) => i % 2 === 0),
            body,
            rawBody,
            json: parse(body),
            connection: incoming.socket,
          };
          // the parse as received, when a fault may change it: a body is forwarded as sent unless the fault changed
          // its text or its parsed JSON
          const received = fault?.request ? JSON.stringify(req.json) : undefined;
          let res: ProxyResponse | undefined = fault?.request?.(req);
          if (!res) {
            const jsonChanged =
              fault?.request !== undefined && req.json !== undefined && JSON.stringify(req.json) !== received;
            const sentBody = req.body !== body ? req.body : jsonChanged ? JSON.stringify(req.json) : req.rawBody;
            // HEAD is answered as the faulty GET, without its body: a fault that rewrites a body changes its length too
            const asSent = req.method === "HEAD" ? { ...req, method: "GET" } : req;
            res = await upstream(asSent.method, `${req.url.pathname}${req.url.search}`, req.headers, sentBody);
            res = (await fault?.response?.(asSent, res, upstream)) ?? res;
            if (req.method === "HEAD")
              res = {
                ...res,
                headers: { ...res.headers, "content-length": String(Buffer.byteLength(res.body)) },
                body: "",
              };
          }
          if (fault?.dated === false) {
            const { date: _, ...headers } = res.headers;
            res = { ...res, headers };
            outgoing.sendDate = false;
          }
          writeAnswer(outgoing, res);
        } catch (error) {
          outgoing.writeHead(502, { "content-type": "text/plain" });
          outgoing.end(`fault proxy: ${(error as Error).message}`);
        }
      };
      // a body declared past the server's bound is not waited for, as the server does not wait (D-30, D-443): a
      // stand-in one byte past the bound reaches it, it refuses that as it would the body, and the rest is discarded
      if (Number(incoming.headers["content-length"]) > bodyLimitBytes && !fault?.awaitsDeclaredBody) {
        incoming.resume();
        outgoing.shouldKeepAlive = false;
        void answer(Buffer.alloc(bodyLimitBytes + 1, " "));
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on("data", (c: Buffer) => chunks.push(c));
      incoming.on("end", () => void answer(Buffer.concat(chunks)));
    },
  );
  // a request its parser refuses is answered as the server would answer it (D-16, D-373): the proxy's own refusals
  // must not read as a fault's
  if (!fault?.bareParserRefusals) answerClientErrors(server, pino({ level: "silent" }));
  const { url, close } = await listen(server, 0, "127.0.0.1");
  return { url, close };
}
