/** Tests of the raw HTTP response parser used by the fuzz and shutdown scenarios. */
import { describe, expect, it } from "vitest";
import { parseResponse } from "./raw-http.js";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("parseResponse", () => {
  const cases: {
    given: string;
    options?: { head?: boolean; closed?: boolean };
    want: { complete: boolean; status?: number; body?: string; error?: RegExp };
  }[] = [
    {
      given: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      want: { complete: true, status: 200, body: "hello" },
    },
    { given: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", want: { complete: false } },
    {
      given: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel",
      options: { closed: true },
      want: { complete: false, error: /closed after 3 of 5/ },
    },
    {
      given: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
      want: { complete: true, status: 200, body: "abcde" },
    },
    { given: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", want: { complete: false } },
    {
      given: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}",
      want: { complete: true, status: 201, body: "{}" },
    },
    { given: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n", want: { complete: false } },
    {
      given: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
      options: { closed: true },
      want: { complete: true, status: 400, body: "" },
    },
    {
      given: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n",
      options: { head: true },
      want: { complete: true, status: 200, body: "" },
    },
    { given: "HTTP/1.1 204 No Content\r\n\r\n", want: { complete: true, status: 204, body: "" } },
    {
      given: "HTTP/1.1 200 OK\r\nContent-Le",
      options: { closed: true },
      want: { complete: false, error: /before the end of the headers/ },
    },
    { given: "garbage\r\n\r\n", want: { complete: false, error: /not an HTTP status line/ } },
  ];
  it.each(cases)("parses $given", ({ given, options, want }) => {
    const parsed = parseResponse(bytes(given), options);
    expect(parsed.complete).toBe(want.complete);
    if (parsed.complete) {
      expect(parsed.answer.status).toBe(want.status);
      expect(parsed.answer.body.toString("latin1")).toBe(want.body);
    } else if (want.error) {
      expect(parsed.error).toMatch(want.error);
    } else {
      expect(parsed.error).toBeUndefined();
    }
  });

  it("keeps repeated headers, lower-cased, in order", () => {
    const parsed = parseResponse(
      bytes("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 0\r\n\r\n"),
    );
    expect(parsed.complete && parsed.answer.headers).toEqual([
      ["allow", "GET"],
      ["x-a", "1"],
      ["x-a", "2"],
      ["content-length", "0"],
    ]);
  });
});
