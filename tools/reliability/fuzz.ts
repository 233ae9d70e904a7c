/**
 * Fuzz scenario of `npm run reliability`: thousands of invalid or hostile requests across every
 * operation, from a fixed seed. Passes when no answer is 5xx or missing, every error answer is a problem
 * detail, no 2xx is invalid, the data is unchanged, and the server's RSS does not grow again when the same cases are sent a
 * second time.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type Caller, call, templateDeployment, walkDeployments } from "../harness/http.js";
import { rssKiB } from "../harness/reference.js";
import { ContractChecker } from "./answer-check.js";
import { type FuzzCase, type FuzzContext, fuzzCases, renderCase } from "./fuzz-cases.js";
import { rawRequest } from "./raw-http.js";
import type { ScenarioResult } from "./scenario.js";

interface FuzzOptions {
  seed: number;
  count: number;
  warmupCount: number;
  concurrency: number;
  /** Allowed RSS growth after the run, as a fraction of the level before it, with a floor in MiB. */
  rssTolerance: { fraction: number; floorMiB: number };
  log(message: string): void;
}

/** Everything a caller can read, in a stable order: deployments of every tenant, providers, repositories. */
async function snapshot(url: string): Promise<string> {
  const callers: [string, Caller][] = [
    ["acme-production", { url, apiKey: demo.acme.apiKey }],
    ["acme-staging", { url, apiKey: demo.acme.apiKey, tenantId: demo.acme.stagingTenantId }],
    ["globex-production", { url, apiKey: demo.globex.apiKey }],
  ];
  const parts: unknown[] = [];
  for (const [name, caller] of callers) parts.push(name, (await walkDeployments(caller)).deployments);
  parts.push((await call({ url, apiKey: demo.acme.apiKey }, "GET", "/v2/auth/providers")).body);
  parts.push((await call({ url, apiKey: demo.globex.apiKey }, "GET", "/v2/auth/providers")).body);
  parts.push(
    (
      await call(
        { url, apiKey: demo.acme.apiKey },
        "GET",
        `/v1/integrations/codehost/${demo.acme.plainIntegrationId}/repos`,
      )
    ).body,
  );
  parts.push(
    (
      await call(
        { url, apiKey: demo.acme.apiKey },
        "GET",
        `/v1/integrations/forge/codehost/${demo.acme.managedIntegrationId}/repos`,
      )
    ).body,
  );
  parts.push(
    (
      await call(
        { url, apiKey: demo.globex.apiKey },
        "GET",
        `/v1/integrations/codehost/${demo.globex.plainIntegrationId}/repos`,
      )
    ).body,
  );
  return JSON.stringify(parts);
}

/** Creates the data the cases refer to (an existing name and provider for duplicates) and some rows to list. */
async function prepare(url: string): Promise<FuzzContext> {
  const acme: Caller = { url, apiKey: demo.acme.apiKey };
  const existingDeploymentName = "fz-existing";
  const existingProviderId = "fz-existing-provider";
  const created = await call(acme, "POST", "/v2/deployments", templateDeployment(existingDeploymentName));
  if (created.status !== 201)
    throw new Error(`preparing fuzz data: create answered ${created.status} ${JSON.stringify(created.body)}`);
  for (let k = 0; k < 24; k++)
    await call(
      k % 3 === 0 ? { ...acme, tenantId: demo.acme.stagingTenantId } : acme,
      "POST",
      "/v2/deployments",
      templateDeployment(`fz-row-${k}`),
    );
  await call({ url, apiKey: demo.globex.apiKey }, "POST", "/v2/deployments", templateDeployment("fz-globex-row"));
  const provider = await call(acme, "POST", "/v2/auth/providers", {
    provider_id: existingProviderId,
    name: "Existing",
    client_id: "c",
    auth_url: "https://auth.example/a",
    token_url: "https://auth.example/t",
    client_secret: "s",
  });
  if (provider.status !== 200 && provider.status !== 201)
    throw new Error(
      `preparing fuzz data: provider create answered ${provider.status} ${JSON.stringify(provider.body)}`,
    );
  return { ...demo, existingDeploymentName, existingProviderId };
}

/** The request in readable form and a shell line that replays it against a server (for bug reports). */
function reproduction(fuzzCase: FuzzCase, port: number): string {
  const bytes = renderCase(fuzzCase, `127.0.0.1:${port}`);
  const readable = [...bytes.subarray(0, 400)]
    .map((b) =>
      b >= 0x20 && b < 0x7f
        ? String.fromCharCode(b)
        : b === 0x0d
          ? "\\r"
          : b === 0x0a
            ? "\\n"
            : `\\x${b.toString(16).padStart(2, "0")}`,
    )
    .join("");
  const shown = `${readable}${bytes.length > 400 ? `… (${bytes.length} bytes)` : ""}`;
  if (bytes.length > 2_000) return `request: ${shown}`;
  const replay = `node -e 'const s=require("net").connect(${port},"127.0.0.1");s.pipe(process.stdout);s.end(Buffer.from("${bytes.toString("base64")}","base64"))'`;
  return `request: ${shown}\n        replay: ${replay}`;
}

interface Finding {
  count: number;
  categories: Map<string, number>;
  examples: { index: number; variant: string; detail: string; body: string; repro: string }[];
}

export async function fuzzScenario(server: ChildServer, options: FuzzOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const url = new URL(server.url);
  const port = Number(url.port);
  const checker = new ContractChecker();
  const ctx = await prepare(server.url);
  await sleep(300); // let READY_AFTER_MS pass so statuses are settled before the snapshot

  const statuses = new Map<string, number>();
  const categories = new Map<string, number>();
  const findings = new Map<string, Finding>();
  let sent = 0;
  let peakRssKiB = 0;
  const runCases = async (cases: Iterable<FuzzCase>, record: boolean) => {
    const iterator = cases[Symbol.iterator]();
    const worker = async () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        const fuzzCase = next.value;
        const outcome = await rawRequest("127.0.0.1", port, renderCase(fuzzCase, `127.0.0.1:${port}`), {
          head: fuzzCase.method === "HEAD",
          timeoutMs: 15_000,
        });
        if (!record) continue;
        sent += 1;
        categories.set(fuzzCase.category, (categories.get(fuzzCase.category) ?? 0) + 1);
        const statusKey = outcome.kind === "answer" ? String(outcome.answer.status) : "none";
        statuses.set(statusKey, (statuses.get(statusKey) ?? 0) + 1);
        const problems =
          outcome.kind === "answer"
            ? [
                ...checker.check(
                  { method: fuzzCase.method, target: Buffer.from(fuzzCase.target).toString("latin1") },
                  outcome.answer,
                ),
                ...(fuzzCase.expectStatus === undefined || fuzzCase.expectStatus === outcome.answer.status
                  ? []
                  : [`${outcome.answer.status} where ${fuzzCase.expectStatus} is decided`]),
              ]
            : [`no answer (${outcome.reason})`];
        if (problems.length === 0) continue;
        const status = outcome.kind === "answer" ? outcome.answer.status : "none";
        // One finding per kind of answer, whatever the case: e.g. every bodiless 400 of node's parser together.
        const signature = `${status === "none" ? "no answer" : `HTTP ${status}`}: ${problems.map((problem) => problem.replace(/: .*$/s, "")).join("; ")}${hint(fuzzCase, outcome)}`;
        const finding = findings.get(signature) ?? { count: 0, categories: new Map<string, number>(), examples: [] };
        findings.set(signature, finding);
        finding.count += 1;
        finding.categories.set(fuzzCase.category, (finding.categories.get(fuzzCase.category) ?? 0) + 1);
        if (finding.examples.length < 3 && !finding.examples.some((example) => example.variant === fuzzCase.variant)) {
          finding.examples.push({
            index: fuzzCase.index,
            variant: fuzzCase.variant.slice(0, 80),
            detail: problems.join("; ").slice(0, 300),
            body: outcome.kind === "answer" ? outcome.answer.body.subarray(0, 200).toString("utf8") : "",
            repro: reproduction(fuzzCase, port),
          });
        }
      }
    };
    const sampler = setInterval(() => {
      peakRssKiB = Math.max(peakRssKiB, rssKiB(server.pid) ?? 0);
    }, 100);
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    clearInterval(sampler);
  };

  // Warm-up with another seed, so the RSS baseline is taken after the allocator has seen large bodies.
  await runCases(fuzzCases(options.seed + 1, options.warmupCount, ctx), false);
  await sleep(1_000);
  const before = await snapshot(server.url);
  const rssBeforeKiB = rssKiB(server.pid) ?? 0;
  const started = performance.now();
  await runCases(fuzzCases(options.seed, options.count, ctx), true);
  const elapsedS = (performance.now() - started) / 1000;
  const rssFirstKiB = await lowestRssKiB(server.pid);
  // The same cases again: a leak keeps what each pass allocates, while the allocator's high-water mark after a burst
  // (measured anywhere from 0 to 42 MiB over one pass of 5,000) stays where the first pass left it.
  await runCases(fuzzCases(options.seed, options.count, ctx), false);
  const rssSecondKiB = await lowestRssKiB(server.pid);
  const after = await snapshot(server.url);

  if (sent < options.count) failures.push(`only ${sent} of ${options.count} cases sent`);
  for (const [signature, finding] of [...findings].sort(([, a], [, b]) => b.count - a.count)) {
    const where = [...finding.categories].map(([category, n]) => `${category} ${n}`).join(", ");
    const examples = finding.examples
      .map(
        (example) =>
          `\n      case #${example.index} (${example.variant}): ${example.detail}${example.body ? ` — body ${JSON.stringify(example.body)}` : ""}\n        ${example.repro}`,
      )
      .join("");
    failures.push(`${finding.count}x ${signature} [${where}]${examples}`);
  }
  if (before !== after)
    failures.push(
      `data changed: snapshot before (${before.length} chars) differs from after (${after.length} chars); first difference near char ${firstDifference(before, after)}: ${JSON.stringify(before.slice(firstDifference(before, after) - 80, firstDifference(before, after) + 120))} vs ${JSON.stringify(after.slice(firstDifference(before, after) - 80, firstDifference(before, after) + 120))}`,
    );
  const allowedKiB = Math.max(rssBeforeKiB * options.rssTolerance.fraction, options.rssTolerance.floorMiB * 1024);
  const rssLine = `RSS ${mib(rssBeforeKiB)} MiB before, peak ${mib(peakRssKiB)} MiB, lowest ${mib(rssFirstKiB)} MiB in the 5 s after, ${mib(rssSecondKiB)} MiB after a second pass of the same cases (allowed growth ${mib(allowedKiB)} MiB a pass, ${mib(2 * allowedKiB)} MiB in all)`;
  if (rssSecondKiB - rssFirstKiB > allowedKiB || rssSecondKiB - rssBeforeKiB > 2 * allowedKiB)
    failures.push(`memory did not come back: ${rssLine}`);
  const statusLine = [...statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}:${n}`)
    .join(" ");
  const categoryLine = [...categories].map(([name, n]) => `${name} ${n}`).join(", ");
  return {
    name: "fuzz",
    failures,
    summary: [
      `${sent} hostile requests (seed ${options.seed}, ${options.concurrency} at a time) in ${elapsedS.toFixed(1)} s; answers by status ${statusLine}`,
      `categories: ${categoryLine}`,
      `data unchanged: ${before === after ? "yes" : "NO"} (${before.length} chars of lists compared)`,
      rssLine,
    ],
  };
}

/** The lowest RSS over the 5 s after a burst: V8 and the allocator give memory back lazily. */
async function lowestRssKiB(pid: number): Promise<number> {
  let lowest = Number.POSITIVE_INFINITY;
  for (let sample = 0; sample < 20; sample++) {
    await sleep(250);
    lowest = Math.min(lowest, rssKiB(pid) ?? 0);
  }
  return lowest;
}

/** Where an answer that never reached the application comes from, so the report says what to fix. */
function hint(fuzzCase: FuzzCase, outcome: Awaited<ReturnType<typeof rawRequest>>): string {
  if (outcome.kind === "no-answer")
    return fuzzCase.method === "CONNECT"
      ? " (node:http destroys the socket of a CONNECT request when the server has no 'connect' listener)"
      : "";
  const { answer } = outcome;
  if (
    (answer.status === 400 || answer.status === 431) &&
    answer.body.length === 0 &&
    answer.headers.every(([name]) => name !== "content-type")
  )
    return " (node:http's parser rejected the request before the application saw it; a 'clientError' listener can answer with a problem detail)";
  return "";
}

function mib(kib: number): string {
  return (kib / 1024).toFixed(1);
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
