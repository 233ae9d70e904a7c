/**
 * Hostile target scenario of `npm run reliability` (D-391..D-393): the conformance suite, run as a user runs it
 * (`conformance/bin.ts` in a child process), against a target that streams an answer that never ends, echoes the
 * key and an `-H` token back, leaks a client secret and writes terminal escapes. Holds: the suite's peak RSS stays
 * under `allowedRssMiB`, no report, HAR or printed line holds a secret, no escape reaches the console.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScenarioResult } from "./scenario.js";
import { runSuiteProcess } from "./suite-process.js";

interface HostileTargetOptions {
  /** The suite's per-request timeout: an endless answer is streamed this long at most (60 s in the red-team run). */
  timeoutMs: number;
  log(message: string): void;
}

/** The suite's peak RSS with the default 8 MiB bound (measured 2026-11-27: see docs/limits-and-hardening.md). */
const allowedRssMiB = 512;
/** What the hostile target streams to one connection at most, so a suite without a bound cannot take the machine. */
const maxStreamedBytes = 2 * 1024 ** 3;

const apiKey = "dk_hostile_reliability_key_7d1e";
const token = "gw-token-reliability-33f0";
const leaked = "leaked-client-secret-reliability";
const escapes = "\x1b]0;pwned\x07\x1b[2J\x1b[Hevery MUST check passed\r";

/** Streams `a`s until the client goes or `maxStreamedBytes` went; resolves with the bytes sent. */
function streamEndlessly(res: ServerResponse): void {
  const chunk = Buffer.alloc(256 * 1024, "a");
  let sent = 0;
  res.writeHead(200, { "Content-Type": "application/json" });
  res.write("[");
  const pump = (): void => {
    while (!res.destroyed && sent < maxStreamedBytes) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

/** Runs the suite against the hostile target; the summary and the violations. */
export async function hostileTargetScenario(options: HostileTargetOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  let listRequests = 0;
  const server = createServer((req, res) => {
    const echoed = `${req.headers["x-api-key"]} ${req.headers["x-gateway-token"]}`;
    const path = new URL(req.url ?? "/", "http://target").pathname;
    // the preflight's two probes are answered as the interface would, then the providers list never ends
    if (path === "/v2/deployments") {
      res.writeHead(200, { "Content-Type": "application/json", "X-Echo": echoed });
      res.end(JSON.stringify({ resources: [], offset: 0 }));
      return;
    }
    listRequests += 1;
    if (listRequests === 2) return streamEndlessly(res);
    res.writeHead(200, { "Content-Type": "application/json", "X-Echo": echoed });
    res.end(`${JSON.stringify([{ id: "p", client_secret: leaked, note: echoed }])}${escapes}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), "hostile-target-"));
  try {
    const flags = ["--base-url", baseUrl, "--api-key", apiKey, "-H", `X-Gateway-Token: ${token}`, "--read-only"];
    const run = [...flags, "--only", "PROV-LIST-001,PROV-LIST-003", "--timeout-ms", String(options.timeoutMs)];
    const report = ["--report-dir", dir, "--har", join(dir, "run.har"), "--verbose"];
    // two checks, each cut at the timeout: a suite still running ten timeouts later is killed, and fails the scenario
    const killAfterSeconds = (10 * options.timeoutMs) / 1000 + 120;
    const { exitCode, printed, peakMiB } = await runSuiteProcess([...run, ...report], killAfterSeconds);
    options.log(`hostile-target: suite exit ${exitCode}, peak RSS ${peakMiB.toFixed(0)} MiB`);
    if (peakMiB > allowedRssMiB)
      failures.push(`the suite's peak RSS was ${peakMiB.toFixed(0)} MiB, over ${allowedRssMiB} MiB`);
    if (exitCode !== 1)
      failures.push(`the suite exited ${exitCode}, expected 1 (the endless and leaking answers fail)`);
    const written = readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), "utf8")] as const);
    for (const [file, text] of [...written, ["console", printed] as const])
      for (const secret of [apiKey, token, leaked])
        if (text.includes(secret)) failures.push(`${file} holds the secret ${secret.slice(0, 6)}…`);
    if (printed.includes("\x1b")) failures.push("an escape sequence of the target reached the console");
    if (!/max-response-bytes/.test(printed)) failures.push("the console does not say the endless answer was cut");
    return {
      name: "hostile-target",
      failures,
      summary: [
        `suite peak RSS ${peakMiB.toFixed(0)} MiB (allowed ${allowedRssMiB}) against an endless answer, --timeout-ms ${options.timeoutMs}`,
        `reports checked for the key, an -H token and a leaked client_secret: ${written.map(([file]) => file).join(", ")}, console`,
      ],
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
