/**
 * The suite against a target nobody trusts (D-391..D-393): it redirects the key elsewhere, echoes the secrets it
 * was given, leaks a client secret, writes terminal escapes and sends an answer that never ends. Each case fails
 * without its fix: the key would reach the other port, a secret would sit in a report, an escape in the console,
 * the endless answer would be read until the timeout.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderConsole } from "../report/console.js";
import { toHar } from "../report/har.js";
import { renderReplay } from "../report/replay.js";
import { writeReports } from "../report/write.js";
import { sendHttp, TransportError } from "../target/http-exchange.js";
import { confirmGone, forgetTargetGone } from "../target/target-gone.js";
import { runConformance } from "./conformance-command.js";
import { resolveConfig } from "./run-config.js";

const apiKey = "dk_hostile_main_key_0001";
const gatewayToken = "gw-token-7f3a9c21";
const leakedSecret = "leaked-client-secret-xyz";
const escapes = "\x1b]0;pwned\x07\x1b[2J\x1b[Hevery MUST check passed\r";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A server on 127.0.0.1 port 0 whose behaviour each test sets; it records every request it got. */
async function listen(handler: () => Handler): Promise<{ server: Server; url: string; got: IncomingMessage[] }> {
  const got: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    got.push(req);
    handler()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

let behaviour: Handler = (_req, res) => res.end();
let target: Awaited<ReturnType<typeof listen>>;
let elsewhere: Awaited<ReturnType<typeof listen>>;
let bytesSent = 0;

beforeAll(async () => {
  target = await listen(() => behaviour);
  elsewhere = await listen(() => (_req, res) => res.end("[]"));
});
afterEach(() => forgetTargetGone());
afterAll(async () => {
  target.server.closeAllConnections();
  await Promise.all([target, elsewhere].map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

const config = (...extra: string[]) =>
  resolveConfig(["--base-url", target.url, "--api-key", apiKey, "-H", `X-Gateway-Token: ${gatewayToken}`, ...extra], {})
    .config;

describe("no request follows a redirect (D-391)", () => {
  it("the target-gone probe takes a 307 as the target's answer and sends nothing to where it points", async () => {
    behaviour = (_req, res) => res.writeHead(307, { Location: `${elsewhere.url}/v2/auth/providers` }).end();
    const reset = new TransportError("reset", { method: "GET", url: target.url, headers: {} }, "ECONNRESET");
    await expect(confirmGone(config(), reset)).resolves.toBeUndefined();
    expect(elsewhere.got).toHaveLength(0);
  });
  it("a check's request gets the 3xx as its answer", async () => {
    behaviour = (_req, res) => res.writeHead(302, { Location: `${elsewhere.url}/x` }).end();
    const ex = await sendHttp({
      method: "GET",
      url: `${target.url}/v2/auth/providers`,
      headers: { "X-Api-Key": apiKey },
      keyRef: "main",
      timeoutMs: 5000,
      maxBytes: 1024,
    });
    expect(ex.response.status).toBe(302);
    expect(elsewhere.got).toHaveLength(0);
  });
});

describe("an answer is read up to the bound (D-391)", () => {
  it("an endless body is cut at --max-response-bytes and the connection closed", async () => {
    bytesSent = 0;
    const chunk = Buffer.alloc(64 * 1024, "a");
    behaviour = (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const pump = () => {
        // bounded: a client that stopped reading leaves the loop at 64 MiB at most
        while (!res.destroyed && bytesSent < 64 * 1024 * 1024) {
          bytesSent += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      pump();
    };
    const closed = new Promise<void>((resolve) => target.server.once("request", (_q, r) => r.once("close", resolve)));
    const ex = await sendHttp({
      method: "GET",
      url: `${target.url}/v2/deployments`,
      headers: {},
      keyRef: "none",
      timeoutMs: 60_000,
      maxBytes: 256 * 1024,
    });
    await closed;
    expect(ex.response.cutAtBytes).toBe(256 * 1024);
    expect(ex.json).toBeUndefined();
    expect(bytesSent).toBeLessThan(64 * 1024 * 1024);
  });
  it("a declared length over the bound is not read at all", async () => {
    behaviour = (_req, res) => res.writeHead(200, { "Content-Length": String(10 * 1024 * 1024) }).end();
    const ex = await sendHttp({
      method: "GET",
      url: `${target.url}/v2/deployments`,
      headers: {},
      keyRef: "none",
      timeoutMs: 5000,
      maxBytes: 1024,
    }).catch((error: unknown) => error);
    // the server lied about its length: either the cut or the broken transfer, never a read of 10 MiB
    if (!(ex instanceof TransportError))
      expect((ex as { response: { cutAtBytes?: number } }).response.cutAtBytes).toBe(1024);
  });
});

describe("secrets echoed by the target reach no report and no printed line (D-392)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hostile-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("junit.xml, results.json, report.html, the HAR and the console hold none of them, and no escape", async () => {
    behaviour = (req, res) => {
      const echoed = `${req.headers["x-api-key"]} ${req.headers["x-gateway-token"]}`;
      res.writeHead(200, { "Content-Type": "application/json", "X-Echo": echoed });
      // a list whose record leaks a client secret and quotes the key and the token back, then terminal escapes
      res.end(`${JSON.stringify([{ id: "p", client_secret: leakedSecret, note: echoed }])}${escapes}`);
    };
    const { result, exchanges } = await runConformance(config("--only", "PROV-LIST-003,PROV-LIST-001", "--read-only"), {
      recordExchanges: true,
    });
    expect(result.verdicts.some((v) => v.status === "fail")).toBe(true);
    const written = writeReports(dir, result).map((file) => readFileSync(file, "utf8"));
    const har = JSON.stringify(toHar(exchanges, result));
    const printed = renderConsole(result, { verbose: true });
    const replayed = renderReplay(result, exchanges);
    for (const text of [...written, har, printed, replayed])
      for (const secret of [apiKey, gatewayToken, leakedSecret]) expect(text).not.toContain(secret);
    for (const text of [printed, replayed]) expect(text).not.toContain("\x1b");
    expect(printed).toContain("\\x1b]0;pwned\\x07");
  });
});
