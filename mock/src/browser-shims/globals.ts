/** Node globals the server's modules use at import, for the browser build (D-173): Buffer (with base64url text, which the buffer package lacks) and process.env. Imported first. */
import { Buffer } from "buffer/";

const toText = Buffer.prototype.toString;
// base64url is base64 with '-' and '_' and no padding (RFC 4648 §5); SecretBox writes its sealed values in it.
Buffer.prototype.toString = function toStringWithBase64url(
  this: Buffer,
  encoding?: string,
  start?: number,
  end?: number,
): string {
  if (encoding !== "base64url") return toText.call(this, encoding as BufferEncoding, start, end);
  return toText.call(this, "base64", start, end).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const globals = globalThis as unknown as { Buffer?: typeof Buffer; process?: { env: Record<string, string> } };
globals.Buffer ??= Buffer;
globals.process ??= { env: {} };
