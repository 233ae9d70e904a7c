import { execFileSync } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printfFormat, shellQuote, toCurl } from "../report/curl.js";
import { sendHttp, shownExchange } from "./http-exchange.js";

let server: Server;
let url: string;
let got: { headers: IncomingHttpHeaders; bytes: Buffer } | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      got = { headers: req.headers, bytes: Buffer.concat(chunks) };
      if (req.url?.endsWith("?echo"))
        // an answer that holds the secret sent, in a header and in the body, beside a header the secret is part of
        res
          .writeHead(200, { "content-type": "application/json", "x-echo": "appl" })
          .end(JSON.stringify({ note: "appl", client_secret: "appl" }));
      else
        res.writeHead(200, { "content-type": "application/json" }).end(req.url?.endsWith("?bom") ? "\ufeff{}" : "{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/auth/providers`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const notUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);

describe("sendHttp's bodies", () => {
  const cases: {
    name: string;
    given: { body: string | Uint8Array; streamed?: boolean };
    want: { framing: "length" | "chunked"; shown: string };
  }[] = [
    { name: "text with its length", given: { body: '{"n":"é"}' }, want: { framing: "length", shown: '{"n":"é"}' } },
    {
      name: "bytes as sent, shown \\xNN",
      given: { body: notUtf8 },
      want: { framing: "length", shown: '{"n":"\\xff"}' },
    },
    {
      name: "bytes with a backslash, shown doubled",
      given: { body: new Uint8Array([0x22, 0x5c, 0x78, 0x66, 0x66, 0xc0, 0x22]) },
      want: { framing: "length", shown: '"\\\\xff\\xc0"' },
    },
    {
      name: "a streamed body chunked, with no length",
      given: { body: "x".repeat(200_000), streamed: true },
      want: { framing: "chunked", shown: `${"x".repeat(4096)}…` },
    },
  ];
  for (const { name, given, want } of cases)
    it(name, async () => {
      const ex = await sendHttp({
        method: "POST",
        url,
        headers: { "Content-Type": "application/json" },
        ...given,
        keyRef: "none",
        timeoutMs: 5000,
        maxBytes: 1024,
      });
      const sent = typeof given.body === "string" ? Buffer.from(given.body) : Buffer.from(given.body);
      expect(got?.bytes.equals(sent)).toBe(true);
      expect(got?.headers["transfer-encoding"]).toBe(want.framing === "chunked" ? "chunked" : undefined);
      expect(got?.headers["content-length"]).toBe(want.framing === "length" ? String(sent.byteLength) : undefined);
      expect(ex.request.body).toBe(want.shown);
      // the printed command sends it with the same framing, and bytes that are not UTF-8 as they were sent
      expect(toCurl(ex.request).includes("'Transfer-Encoding: chunked'")).toBe(want.framing === "chunked");
      if (ex.request.bodyEscaped)
        expect(execFileSync("sh", ["-c", `printf ${shellQuote(printfFormat(ex.request.body!))}`]).equals(sent)).toBe(
          true,
        );
    });
});

describe("sendHttp's reading of an answer", () => {
  it.each([
    { given: "JSON", query: "", want: { json: {}, bom: false } },
    {
      given: "JSON after a byte order mark: parsed, the mark kept in the text",
      query: "?bom",
      want: { json: {}, bom: true },
    },
  ])("$given", async ({ query, want }) => {
    const ex = await sendHttp({
      method: "GET",
      url: `${url}${query}`,
      headers: {},
      keyRef: "none",
      timeoutMs: 5000,
      maxBytes: 1024,
    });
    expect(ex.json).toEqual(want.json);
    expect(ex.response.body.startsWith("\ufeff")).toBe(want.bom);
  });
});

describe("sendHttp keeps the answer as received for the checks, and its redacted form for the reports (D-392)", () => {
  it("a sent secret that is part of application/json changes no judged header, and is shown redacted", async () => {
    const ex = await sendHttp({
      method: "POST",
      url: `${url}?echo`,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_secret: "appl" }),
      keyRef: "none",
      timeoutMs: 5000,
      maxBytes: 1024,
      secrets: ["appl"],
    });
    expect(ex.response.headers).toMatchObject({ "content-type": "application/json", "x-echo": "appl" });
    expect(JSON.parse(ex.response.body)).toEqual({ note: "appl", client_secret: "appl" });
    const shown = shownExchange(ex).response;
    expect(shown.headers).toMatchObject({ "content-type": "[REDACTED]ication/json", "x-echo": "[REDACTED]" });
    expect(shown.body).toBe('{"note":"[REDACTED]","client_secret":"[REDACTED]"}');
    expect(shown).not.toHaveProperty("shown");
    expect(ex.request.body).toBe('{"client_secret":"[REDACTED]"}');
  });
});
