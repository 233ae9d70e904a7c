/**
 * `npx tsx tools/bench/profile.ts [create|list20|list100|list20-validated|name-contains|startup|commit] [seconds]`:
 * runs one load (or just a start and a first answer) against the reference server started with V8's
 * --cpu-prof and prints where its CPU time went (self time by function and by file), so a missed target
 * in docs/benchmarks.md is explained by measurement. `commit` measures this disk's SQLite commit rate
 * (WAL, synchronous FULL vs NORMAL) without the server, the floor under one-create-per-commit.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import { parseCommandLine } from "../../common/cli.js";
import { demo } from "../../contract/index.js";
import { buildServerIfStale } from "../build/build-server.js";
import { templateDeployment } from "../harness/http.js";
import { repoRoot, startReference } from "../harness/reference.js";
import { runLoad } from "./load.js";
import { seedDeployments } from "./seed.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function and per file, in milliseconds, largest first. */
export function selfTimes(profile: CpuProfile): {
  byFunction: [string, number][];
  byFile: [string, number][];
  totalMs: number;
} {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    const frame = nodes.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url
      ? relative(repoRoot, frame.url.replace(/^file:\/\//, ""))
      : `(${frame.functionName || "native"})`;
    const fn = `${frame.functionName || "(anonymous)"} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    const group = file.startsWith("node_modules/")
      ? file
          .split("/")
          .slice(0, file.startsWith("node_modules/@") ? 3 : 2)
          .join("/")
      : file;
    byFile.set(group, (byFile.get(group) ?? 0) + ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { byFunction: sorted(byFunction), byFile: sorted(byFile), totalMs };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/tools\//, "tools/"));
/** Single-row commits per second on a WAL file with the given synchronous setting. */
function commitRate(dir: string, synchronous: "FULL" | "NORMAL", seconds: number): number {
  const db = new Database(join(dir, `commit-${synchronous}.sqlite`));
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous}`);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  const body = "x".repeat(700);
  const deadline = performance.now() + seconds * 1000;
  let commits = 0;
  while (performance.now() < deadline) {
    db.transaction(() => insert.run(body))();
    commits += 1;
  }
  db.close();
  return commits / seconds;
}

const usage = `Usage: npx tsx tools/bench/profile.ts [KIND] [SECONDS]
  KIND      create (default), list20, list100, list20-validated, list100-validated, name-contains
            (limit=20, name_contains=777), startup, or commit
            (this disk's SQLite commit rate, WAL synchronous FULL vs NORMAL, without the server)
  SECONDS   length of the load (default 5)`;

if (isMain) {
  const { positionals } = parseCommandLine(usage, {}, { positionals: true });
  const kind = positionals[0] ?? "create";
  const seconds = Number(positionals[1] ?? 5);
  if (kind === "commit") {
    const dir = mkdtempSync(join(tmpdir(), "commit-"));
    for (const mode of ["FULL", "NORMAL"] as const)
      process.stdout.write(
        `WAL, synchronous=${mode}: ${commitRate(dir, mode, seconds).toFixed(0)} single-row commits/s\n`,
      );
    process.exit(0);
  }
  await buildServerIfStale();
  const dir = mkdtempSync(join(tmpdir(), "profile-"));
  const profileDir = join(dir, "profiles");
  const sqlitePath = join(dir, "db.sqlite");
  if (kind.startsWith("list") || kind === "name-contains") {
    // Seed with an unprofiled process, so the profile holds the list load only (plus start-up).
    const seeder = await startReference({ logDir: dir, sqlitePath, validateResponses: false });
    await seedDeployments({ url: seeder.url, apiKey: demo.acme.apiKey }, 2_000, "pf", 10);
    await seeder.stop();
  }
  const target = await startReference({
    name: "profiled",
    logDir: dir,
    sqlitePath,
    validateResponses: kind.endsWith("validated"),
    nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir],
  });
  const headers = { "x-api-key": demo.acme.apiKey };
  let next = 0;
  const figures =
    kind === "startup"
      ? await runLoad({
          url: target.url,
          path: "/v2/auth/providers",
          headers,
          connections: 1,
          durationS: 0,
          amount: 1,
          warmupS: 0,
        })
      : kind === "create"
        ? await runLoad({
            url: target.url,
            path: "/v2/deployments",
            method: "POST",
            headers,
            body: () => JSON.stringify(templateDeployment(`pf-${next++}`)),
            connections: 10,
            durationS: seconds,
            warmupS: 1,
          })
        : await runLoad({
            url: target.url,
            path: `/v2/deployments?limit=${kind.startsWith("list100") ? 100 : 20}&offset=0${kind === "name-contains" ? "&name_contains=777" : ""}`,
            headers,
            connections: 10,
            durationS: seconds,
            warmupS: 1,
          });
  await target.stop();
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${profileDir}`);
  const times = selfTimes(JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile);
  const pct = (ms: number) => `${((100 * ms) / times.totalMs).toFixed(1).padStart(5)}%`;
  if (kind === "startup")
    process.stdout.write(
      `startup: "listening" after ${target.listeningAfterMs.toFixed(0)} ms (profiled, so slower than unprofiled)\n`,
    );
  else
    process.stdout.write(
      `${kind}: ${figures.requestsPerS.toFixed(0)} req/s, p50 ${figures.p50Ms.toFixed(2)} ms (profiled, so slower than unprofiled)\n`,
    );
  process.stdout.write(
    `profile ${join(profileDir, file)}: ${(times.totalMs / 1000).toFixed(1)} s sampled\n\nself time by file or package:\n`,
  );
  for (const [name, ms] of times.byFile.slice(0, 18)) process.stdout.write(`  ${pct(ms)}  ${name}\n`);
  process.stdout.write("\nself time by function:\n");
  for (const [name, ms] of times.byFunction.slice(0, 25)) process.stdout.write(`  ${pct(ms)}  ${name}\n`);
}
