import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { pooledFromChars, SendBuffers } from "./send-buffers.js";

/** Stands in for a response: only its "finish" event matters here. */
const response = () => new EventEmitter() as unknown as ServerResponse;

const long = (char: string) => char.repeat(pooledFromChars);

describe("SendBuffers", () => {
  it.each([
    { given: "a short text", text: "x".repeat(pooledFromChars - 1), want: "string" },
    { given: "a long ASCII text", text: long("a"), want: "bytes" },
    { given: "a long text of 3-byte characters", text: long("€"), want: "bytes" },
    { given: "a long text of surrogate pairs", text: long("😀"), want: "bytes" },
    { given: "a text that could outgrow a buffer", text: "a".repeat(64 * 1024), want: "string" },
  ])("sends $given as $want, the same UTF-8 either way", ({ text, want }) => {
    const buffers = new SendBuffers(128 * 1024);
    const body = buffers.body(text, response());
    expect(typeof body === "string" ? "string" : "bytes").toBe(want);
    expect(Buffer.from(body).equals(Buffer.from(text))).toBe(true);
  });

  it("reuses a buffer only once its response has finished", () => {
    const buffers = new SendBuffers(256 * 1024);
    const first = response();
    const firstBody = buffers.body(long("a"), first) as Buffer;
    const secondBody = buffers.body(long("b"), response()) as Buffer;
    expect(secondBody.buffer).not.toBe(firstBody.buffer);
    expect(firstBody.toString()).toBe(long("a"));

    first.emit("finish");
    expect(buffers.freeCount).toBe(1);
    const thirdBody = buffers.body(long("c"), response()) as Buffer;
    expect(thirdBody.buffer).toBe(firstBody.buffer);
  });

  it("keeps at most maxFree buffers for reuse", () => {
    const buffers = new SendBuffers(256 * 1024, 2);
    const responses = [response(), response(), response()];
    for (const each of responses) buffers.body(long("a"), each);
    for (const each of responses) each.emit("finish");
    expect(buffers.freeCount).toBe(2);
  });
});
