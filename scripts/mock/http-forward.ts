/** Forwarding one HTTP exchange to Prism with the bodies buffered, so the caller can inspect or rewrite the answer. */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

/** A buffered answer. */
export interface ForwardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Reads a whole request or response body. */
export async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sends the request to `target` (origin only), with `method` instead of its own if given, and buffers the answer. */
export function forward(
  target: URL,
  incoming: IncomingMessage,
  body: Buffer,
  method = incoming.method,
): Promise<ForwardedResponse> {
  const headers = { ...incoming.headers, host: target.host };
  delete headers.connection;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method, path: incoming.url, headers },
      (response) => {
        readBody(response).then(
          (data) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: data }),
          reject,
        );
      },
    );
    outgoing.once("error", reject);
    outgoing.end(body.length > 0 ? body : undefined);
  });
}
