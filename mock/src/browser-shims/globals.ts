/** Node globals the server's modules use, for the browser build (D-173): Buffer (with base64url text, which the buffer package lacks), process.env and setImmediate (the filtered-list gate's later turn, D-283). Imported first. */
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
const globals = globalThis as unknown as {
  Buffer?: typeof Buffer;
  process?: { env: Record<string, string> };
  setImmediate?: (callback: () => void) => unknown;
};
globals.Buffer ??= Buffer;
globals.process ??= { env: {} };
// A later turn of the event loop: a browser's nearest is a zero-delay timer.
globals.setImmediate ??= (callback) => setTimeout(callback, 0);
