/** Tests of the run's reading of JSON texts: which answer, sent over HTTP, each of LAW-022 to LAW-024 would name. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendHttp } from "../target/http-exchange.js";
import { RunJsonTexts } from "./run-json-texts.js";

/** Answers each path with the bytes of the table below. */
const bodies: Record<string, Buffer> = {
  "/plain": Buffer.from('{"id":"a","name":"n"}'),
  "/not-utf8": Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('"}')]),
  "/replacement-char": Buffer.from('{"name":"\ufffd"}'),
  "/bom": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("[]")]),
  "/repeated": Buffer.from('{"id":null,"id":"a"}'),
  "/repeated-secret": Buffer.from('{"client_secret":"s","client_secret":"t"}'),
};

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) =>
    res.writeHead(200, { "Content-Type": "application/json" }).end(bodies[req.url ?? ""] ?? "{}"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("RunJsonTexts", () => {
  const cases: { given: string; path: string; want: { notUtf8: boolean; bom: boolean; repeated?: string } }[] = [
    { given: "a plain JSON answer", path: "/plain", want: { notUtf8: false, bom: false } },
    { given: "a byte 0xFF", path: "/not-utf8", want: { notUtf8: true, bom: false } },
    { given: "U+FFFD written as UTF-8", path: "/replacement-char", want: { notUtf8: false, bom: false } },
    { given: "a byte order mark", path: "/bom", want: { notUtf8: false, bom: true } },
    { given: "a member twice", path: "/repeated", want: { notUtf8: false, bom: false, repeated: "id" } },
    {
      given: "a member twice that redaction would re-write",
      path: "/repeated-secret",
      want: { notUtf8: false, bom: false, repeated: "client_secret" },
    },
  ];
  for (const c of cases)
    it(c.given, async () => {
      const exchange = await sendHttp({
        method: "GET",
        url: `${url}${c.path}`,
        headers: {},
        keyRef: "none",
        timeoutMs: 5000,
        maxBytes: 1024,
      });
      const texts = new RunJsonTexts();
      texts.see(exchange);
      expect(texts.notUtf8 !== undefined).toBe(c.want.notUtf8);
      expect(texts.byteOrderMark !== undefined).toBe(c.want.bom);
      expect(texts.repeated?.name).toBe(c.want.repeated);
    });
});
