/**
 * `npm run bench -- --before <git ref>`: the reference server of this checkout beside the one built from
 * `<ref>` in a temporary worktree, with list `limit=20`, `limit=100` and create, in alternating rounds, judged
 * by the server's CPU per request (D-342). Bare Koa answering each list page's bytes is measured in the same
 * rounds, so both builds are also compared with the framework alone.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { type Caller, templateDeployment } from "../harness/http.js";
import { repoRoot, startReference } from "../harness/reference.js";
import type { BenchConfig } from "./config.js";
import { runLoad } from "./load.js";
import { seedDeployments } from "./seed.js";
import { median } from "./table.js";
import { spawnTarget, tsNode } from "./targets.js";

/** One measured window: a build's (or the baseline's) CPU per request and the 1-minute load average after it. */
interface Sample {
  cpuUsPerRequest: number;
  requestsPerS: number;
  load1m: number;
}

/** The medians of one row over the rounds, and their ratios. */
interface SideBySideRow {
  row: string;
  before: number;
  after: number;
  /** Bare Koa answering the page's bytes, for the list rows. */
  bareKoa?: number;
  /** After over before (below 1: the new build spends less). */
  afterOverBefore: number;
  /** After over bare Koa, for the list rows. */
  afterOverKoa?: number;
  samples: Record<"before" | "after" | "bareKoa", Sample[]>;
}

type Build = "before" | "after";
const rows = [
  { row: "list limit=20", path: "/v2/deployments?limit=20&offset=0" },
  { row: "list limit=100", path: "/v2/deployments?limit=100&offset=0" },
  { row: "create", path: "/v2/deployments" },
] as const;

/** Checks `ref` out into a temporary worktree beside this repository's node_modules and builds its server there. */
function buildAt(ref: string, log: (message: string) => void): { root: string; commit: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), "bench-before-"));
  rmSync(root, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
  git("worktree", "add", "--detach", root, commit);
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"));
  log(`building ${commit.slice(0, 10)} in ${root}`);
  execFileSync(process.execPath, ["--import", "tsx", "tools/build/build-server.ts"], { cwd: root, stdio: "ignore" });
  return { root, commit, remove: () => git("worktree", "remove", "--force", root) };
}

/** Runs the rounds and returns one row per measured call, medians over the rounds. */
export async function beforeAfter(
  ref: string,
  config: BenchConfig,
  logDir: string,
  log: (message: string) => void,
): Promise<{ commit: string; rows: SideBySideRow[] }> {
  const before = buildAt(ref, log);
  const servers: Partial<Record<Build, ChildServer>> = {};
  const samples = rows.map(() => ({ before: [] as Sample[], after: [] as Sample[], bareKoa: [] as Sample[] }));
  try {
    for (const build of ["before", "after"] as const) {
      const server = await startReference({
        name: `side-by-side-${build}`,
        logDir,
        validateResponses: false,
        ...(build === "before" ? { root: before.root } : {}),
      });
      servers[build] = server;
      await seedDeployments({ url: server.url, apiKey: demo.acme.apiKey }, config.smallTenantDeployments, "sb");
    }
    const page = (limit: number) => join(logDir, `side-by-side-page-${limit}.json`);
    for (const limit of [20, 100]) {
      const response = await fetch(`${servers.after!.url}/v2/deployments?limit=${limit}&offset=0`, {
        headers: { "x-api-key": demo.acme.apiKey },
      });
      writeFileSync(page(limit), Buffer.from(await response.arrayBuffer()));
    }
    let next = 0;
    for (let round = 0; round < config.sideBySideRounds; round++) {
      // The order alternates, so neither build always runs right after the other's load.
      const order: Build[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
      for (const [index, { row, path }] of rows.entries()) {
        for (const build of order) {
          const server = servers[build]!;
          const staging: Caller = { url: server.url, apiKey: demo.acme.apiKey, tenantId: demo.acme.stagingTenantId };
          const create = row === "create";
          const figures = await runLoad({
            url: server.url,
            path,
            connections: config.connections,
            durationS: config.rowSeconds,
            warmupS: config.warmupSeconds,
            pid: server.pid,
            headers: create
              ? { "x-api-key": staging.apiKey, "x-tenant-id": staging.tenantId! }
              : { "x-api-key": demo.acme.apiKey },
            ...(create
              ? { method: "POST" as const, body: () => JSON.stringify(templateDeployment(`sbc-${next++}`)) }
              : {}),
          });
          if (figures.non2xx + figures.errors > 0)
            throw new Error(`${build} ${row}: ${figures.non2xx} non-2xx, ${figures.errors} errors`);
          samples[index]![build].push(sample(figures));
          log(`round ${round + 1} ${build} ${row}: ${figures.cpuUsPerRequest!.toFixed(0)} µs/request`);
        }
        if (row !== "create") samples[index]!.bareKoa.push(await bareKoaSample(page(row.endsWith("20") ? 20 : 100)));
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    before.remove();
  }

  async function bareKoaSample(file: string): Promise<Sample> {
    const { command, args } = tsNode("tools/bench/targets/bare-koa.ts");
    const target = await spawnTarget({
      name: "side-by-side-koa",
      command,
      args,
      env: { PORT: "0", BODY_FILE: file, NODE_ENV: "production" },
      logFile: join(logDir, "side-by-side-koa.log"),
      ready: { kind: "listening-line" },
    });
    try {
      return sample(
        await runLoad({
          url: target.url,
          path: "/v2/deployments",
          connections: config.connections,
          durationS: config.rowSeconds,
          warmupS: config.warmupSeconds,
          pid: target.pid,
        }),
      );
    } finally {
      await target.stop();
    }
  }

  return {
    commit: before.commit,
    rows: rows.map(({ row }, index) => sideBySideRow(row, samples[index]!)),
  };
}

function sample(figures: { cpuUsPerRequest?: number; requestsPerS: number }): Sample {
  return {
    cpuUsPerRequest: figures.cpuUsPerRequest ?? Number.NaN,
    requestsPerS: figures.requestsPerS,
    load1m: loadavg()[0]!,
  };
}

/** Medians of the rounds and their ratios. */
export function sideBySideRow(row: string, samples: SideBySideRow["samples"]): SideBySideRow {
  const cpu = (list: Sample[]) => median(list.map((s) => s.cpuUsPerRequest));
  const [before, after] = [cpu(samples.before), cpu(samples.after)];
  const bareKoa = samples.bareKoa.length > 0 ? cpu(samples.bareKoa) : undefined;
  return {
    row,
    before,
    after,
    afterOverBefore: after / before,
    ...(bareKoa !== undefined ? { bareKoa, afterOverKoa: after / bareKoa } : {}),
    samples,
  };
}

/** The table printed and pasted into docs/benchmarks.md. */
export function formatSideBySide(commit: string, result: SideBySideRow[]): string {
  const loads = result.flatMap((r) =>
    [...r.samples.before, ...r.samples.after, ...r.samples.bareKoa].map((s) => s.load1m),
  );
  const lines = [
    `Server CPU per request (µs, median of ${result[0]?.samples.after.length ?? 0} rounds), before = ${commit.slice(0, 10)}, after = this checkout; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
    "| Row | before | after | after/before | bare Koa, same bytes | after/bare Koa | before/bare Koa |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of result) {
    const koa =
      r.bareKoa === undefined
        ? ["-", "-", "-"]
        : [r.bareKoa.toFixed(0), `${r.afterOverKoa!.toFixed(2)}x`, `${(r.before / r.bareKoa).toFixed(2)}x`];
    lines.push(
      `| ${r.row} | ${r.before.toFixed(0)} | ${r.after.toFixed(0)} | ${r.afterOverBefore.toFixed(2)} | ${koa.join(" | ")} |`,
    );
  }
  return lines.join("\n");
}
