/**
 * Reusable send buffers for large JSON answers (D-92): a page of 100 deployments is about 76 KB of
 * text. Sent as a string, Node measured its UTF-8 length three times (Koa's Content-Length, the HTTP
 * layer, the socket's write) before encoding it; sent as a new Buffer, the memory was freed only at
 * the next garbage collection, and glibc gave it back to the system and faulted it in again. A
 * pooled buffer is encoded into once and reused as soon as the answer has been handed to the system.
 */
import type { ServerResponse } from "node:http";

/** Below this, Node encodes a string answer on its own stack without allocating: nothing to save. */
export const pooledFromChars = 16 * 1024;

export class SendBuffers {
  private readonly free: Buffer[] = [];

  /**
   * @param bufferBytes size of each buffer; a text longer than a third of it is sent as a string
   *   (a UTF-16 code unit takes at most 3 bytes of UTF-8).
   * @param maxFree buffers kept for reuse; one in use past that is left to the garbage collector.
   */
  constructor(
    private readonly bufferBytes = 1024 * 1024,
    private readonly maxFree = 16,
  ) {}

  /**
   * The text as UTF-8 bytes in a pooled buffer that returns to the pool once `response` has
   * finished; or the text itself when it is short (nothing to save) or too long for a buffer.
   */
  body(text: string, response: ServerResponse): Buffer | string {
    if (text.length < pooledFromChars || text.length * 3 > this.bufferBytes) return text;
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(this.bufferBytes);
    const length = buffer.write(text, 0, "utf8");
    // "finish": the last byte is with the system. A response that never finishes (the client went
    // away) keeps its buffer, which the garbage collector then frees.
    response.once("finish", () => {
      if (this.free.length < this.maxFree) this.free.push(buffer);
    });
    return buffer.subarray(0, length);
  }

  /** How many buffers wait for reuse. */
  get freeCount(): number {
    return this.free.length;
  }
}
