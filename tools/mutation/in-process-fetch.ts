/**
 * A fetch handler of the pipeline as a standard fetch (D-360): what an HTTP client would put on the wire
 * (Host, Content-Length, fetch's default headers) and what a Node server would tell the handler it received
 * (the method and the request target as sent), with no socket, so a mutant is judged in the test's own process.
 */
import type { FetchHandler, SentMessage } from "../../server/pipeline/fetch-adapter.js";

/** Methods a Request refuses: carried as GET, the handler reads the method as sent (as fetch-http-server.ts does). */
const unfetchableMethods = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The headers Node's fetch adds to every request unless the caller set them. */
const fetchDefaults: Record<string, string> = {
  accept: "*/*",
  "accept-language": "*",
  "sec-fetch-mode": "cors",
  "user-agent": "node",
  "accept-encoding": "gzip, deflate",
  connection: "keep-alive",
};

/** The handler as `typeof fetch`; string URLs and plain-object headers only (what the suite sends): a string, bytes or a stream as the body. */
export function inProcessFetch(handle: FetchHandler): typeof fetch {
  return async (input, init = {}) => {
    if (typeof input !== "string") throw new TypeError("inProcessFetch takes the URL as a string");
    const url = new URL(input);
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(fetchDefaults)) if (!headers.has(name)) headers.set(name, value);
    if (!headers.has("host")) headers.set("host", url.host);
    const method = (init.method ?? "GET").toUpperCase();
    const carried = unfetchableMethods.has(method) ? "GET" : method;
    const body = carried === "GET" || carried === "HEAD" ? undefined : init.body;
    // a string or bytes are sent with their length; a stream is sent chunked, with none (RFC 9112 §6.1)
    if (typeof body === "string") headers.set("content-length", String(Buffer.byteLength(body)));
    else if (body instanceof Uint8Array) headers.set("content-length", String(body.byteLength));
    else if (body === undefined && carried !== "GET" && carried !== "HEAD") headers.set("content-length", "0");
    // the target as the suite wrote it (a URL object would resolve dot segments and re-encode)
    const target = input.slice(input.indexOf("/", input.indexOf("//") + 2)) || "/";
    const sent: SentMessage = {
      method,
      target: target.startsWith("/") ? target : "/",
      httpVersion: "1.1",
      hostFields: 1,
    };
    init.signal?.throwIfAborted();
    const streamed = body instanceof ReadableStream;
    if (streamed) headers.set("transfer-encoding", "chunked");
    const request = new Request(url, {
      method: carried,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(streamed ? { duplex: "half" as const } : {}),
    });
    return handle(request, sent);
  };
}
