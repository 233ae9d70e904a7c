/**
 * The suite against a target nobody trusts (D-391..D-393, D-460..D-463): it redirects the key elsewhere, echoes the
 * secrets it was given, leaks a client secret, writes terminal escapes, sends an answer that never ends, an answer of
 * hundreds of thousands of values, and answers slowly. Each case fails without its fix: the key would reach the other
 * port, a secret would sit in a report, an escape in the console, the endless answer would be read until the timeout,
 * the large answer would be described by ten errors or parsed whole, the slow run would go on to its end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { renderConsole } from "../report/console.js";
import { toHar } from "../report/har.js";
import { renderReplay } from "../report/replay.js";
import { writeReports } from "../report/write.js";
import { sendHttp, TransportError } from "../target/http-exchange.js";
import { confirmGone, forgetTargetGone } from "../target/target-gone.js";
import { main, runConformance } from "./conformance-command.js";
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

describe("a setup answer that names no input is judged, never a setup mistake (D-485)", () => {
  const integrationId = "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";
  /** Runs the command quietly and returns its exit code and the verdicts' statuses by id, from results.json. */
  async function run(baseUrl: string, ...flags: string[]): Promise<{ code: number; failed: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), "setup-judged-"));
    const quiet = [
      vi.spyOn(console, "log").mockImplementation(() => {}),
      vi.spyOn(console, "error").mockImplementation(() => {}),
    ];
    try {
      const code = await main(
        ["--base-url", baseUrl, "--api-key", apiKey, "--read-only", "--report-dir", dir, ...flags],
        {},
      );
      const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as {
        verdicts: { id: string; status: string }[];
      };
      return { code, failed: results.verdicts.filter((v) => v.status === "fail").map((v) => v.id) };
    } finally {
      for (const spy of quiet) spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("a repository listing answered 307 runs the checks, which fail (exit 1), instead of calling --integration-id wrong", async () => {
    behaviour = (req, res) => {
      if (req.url?.includes(integrationId)) return res.writeHead(307, { Location: `${elsewhere.url}/repos` }).end();
      res.writeHead(200, { "Content-Type": "application/json" }).end("[]");
    };
    const { code, failed } = await run(target.url, "--integration-id", integrationId, "--only", "REPO-LIST-001");
    expect(code).toBe(1);
    expect(failed).toContain("REPO-LIST-001");
    expect(elsewhere.got).toHaveLength(0);
  });

  it("an answer with both Content-Length and Transfer-Encoding runs the checks, which fail (exit 1), instead of 'cannot reach'", async () => {
    // a raw server: node:http refuses to send this framing, which is the point
    const raw = createNetServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", () =>
        socket.end(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n",
        ),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const { code, failed } = await run(url, "--only", "PROV-LIST-001");
      expect(code).toBe(1);
      expect(failed).toContain("PROV-LIST-001");
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});

describe("an answer is read on a budget (D-460)", () => {
  // 300,000 empty records: a JSON array of 600 KB, each record missing every required member
  const huge = `[${Array.from({ length: 300_000 }, () => "{}").join(",")}]`;
  const cases: { name: string; flags: string[]; want: RegExp }[] = [
    {
      name: "under the bound of values it is parsed and judged by its first error",
      flags: [],
      want: /does not match the interface-level \(D-220\) schema: \/0 must have required property '[a-z_]+'$/,
    },
    {
      name: "past --max-response-values it is not parsed and its check fails naming the flag",
      flags: ["--max-response-values", "100000"],
      want: /holds more than --max-response-values 100000 JSON values/,
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      behaviour = (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(huge);
      const { result } = await runConformance(config("--only", "PROV-LIST-001", "--read-only", ...c.flags));
      const [verdict] = result.verdicts;
      expect(verdict?.status).toBe("fail");
      expect(verdict?.failure?.message).toMatch(c.want);
      // the failure keeps the answer as shown, not its parsed body
      expect(verdict?.failure?.exchange?.json).toBeUndefined();
      expect(result.exitCode).toBe(1);
    });
});

describe("a slow target is stopped (D-462, D-463)", () => {
  const dir = mkdtempSync(join(tmpdir(), "slow-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const later =
    (ms: number): Handler =>
    (_req, res) => {
      setTimeout(() => res.writeHead(200, { "Content-Type": "application/json" }).end("[]"), ms);
    };

  it("answers slower than half the timeout, two in a row, stop the run: exit 2, why, the reports of what ran", async () => {
    behaviour = later(600);
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const flags = ["--only", "PROV-LIST", "--read-only", "--timeout-ms", "1000", "--max-slow-answers", "2"];
    const code = await main(["--base-url", target.url, "--api-key", apiKey, ...flags, "--report-dir", dir], {});
    const said = printed.mock.calls.flat().join("\n");
    vi.restoreAllMocks();
    expect(code).toBe(2);
    expect(said).toMatch(/stopped: 2 answers in a row were slow .*--max-slow-answers 2/);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(results.exitCode).toBe(2);
    expect(results.warnings[0]).toMatch(/--max-slow-answers 2/);
    expect(
      results.verdicts.some((v: { skipReason?: string }) => v.skipReason?.startsWith("not run: the run stopped")),
    ).toBe(true);
    for (const file of ["junit.xml", "report.html"])
      expect(readFileSync(join(dir, file), "utf8")).toContain("PROV-LIST");
  });
  it("a run past --run-deadline stops with its reason", async () => {
    // two answers of 600 ms each pass the deadline of 1 s (none is slow: the timeout is 2 s)
    behaviour = later(600);
    const { result } = await runConformance(
      config("--only", "PROV-LIST", "--read-only", "--timeout-ms", "2000", "--run-deadline", "1"),
    );
    expect(result.exitCode).toBe(2);
    expect(result.warnings[0]).toMatch(/stopped: the run passed --run-deadline 1 s/);
    expect(result.verdicts.map((v) => v.skipReason)).toContain(
      "not run: the run stopped (the run passed --run-deadline 1 s)",
    );
  });
});
