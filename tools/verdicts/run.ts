/**
 * `npm run verdicts`: the same verdict in any order, with any seed, on a used target (D-222). Against one reference server
 * per hosting kind it runs the suite with each seed, in area order and with `--shuffle`, then once more on the now-used
 * server, and compares every check's verdict between runs. `--out-of-profile` instead stores a spec-legal record beyond the
 * profile's bounds directly in the server's database (a target without bounds would have accepted it) and runs the MUST
 * checks only: every one must pass. Exit 1 when a verdict differs between runs or a MUST check fails after the seeding.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { parseCommandLine } from "../../common/cli.js";
import { main as runSuite } from "../../conformance/cli/conformance-command.js";
import { demoFlags } from "../../contract/demo.js";
import { demo } from "../../contract/index.js";
import { startChildServer } from "../../server/testing/child-server.js";
import { buildServerIfStale } from "../build/build-server.js";
import { compareVerdicts, type RunVerdicts } from "./compare.js";
import { outOfProfileRecords } from "./out-of-profile.js";

type Hosting = "cloud" | "self_hosted";

const usage = `Usage: npm run verdicts -- [--hosting cloud|self_hosted] [--seeds 1,2,3] [--out-of-profile] [-- suite flags]

  --hosting H        only this hosting kind (default: cloud, then self_hosted)
  --seeds LIST       the seeds of the runs (default 1,2,3): each in area order and shuffled, then the first seed again
  --out-of-profile   store a spec-legal record beyond the profile's bounds directly, then run the MUST checks only
Flags after \`--\` go to the suite (e.g. -- --only DEP-LIST --fuzz-runs 20).`;

const argv = process.argv.slice(2);
const split = argv.includes("--") ? argv.indexOf("--") : argv.length;
const suiteFlags = argv.slice(split + 1);
const { values } = parseCommandLine(
  usage,
  { hosting: { type: "string" }, seeds: { type: "string" }, "out-of-profile": { type: "boolean" } },
  { args: argv.slice(0, split) },
);
const hostings: Hosting[] = values.hosting ? [values.hosting as Hosting] : ["cloud", "self_hosted"];
const seeds = (values.seeds ?? "1,2,3").split(",").map(Number);
const scratch = mkdtempSync(join(tmpdir(), "verdicts-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

/** One run of the suite in this process; the verdict of each check id, read back from its results.json. */
async function run(baseUrl: string, hosting: Hosting, label: string, flags: string[]): Promise<RunVerdicts> {
  const reportDir = join(scratch, `${hosting}-${label.replace(/\W+/g, "-")}`);
  mkdirSync(reportDir, { recursive: true });
  const started = performance.now();
  await runSuite([...demoFlags(baseUrl, hosting), "--quiet", "--report-dir", reportDir, ...flags, ...suiteFlags], {});
  const result = JSON.parse(readFileSync(join(reportDir, "results.json"), "utf8")) as {
    verdicts: { id: string; level: string; status: string }[];
  };
  return { label, seconds: (performance.now() - started) / 1000, verdicts: result.verdicts };
}

/** Runs, then compares; prints one line per run and the checks whose verdict differs. */
async function orders(hosting: Hosting): Promise<boolean> {
  const server = await startChildServer({ env: { HOSTING: hosting, READY_AFTER_MS: "200" } });
  try {
    const runs: RunVerdicts[] = [];
    for (const seed of seeds) {
      runs.push(await run(server.url, hosting, `seed ${seed}`, ["--seed", String(seed)]));
      runs.push(await run(server.url, hosting, `seed ${seed} shuffled`, ["--seed", String(seed), "--shuffle"]));
    }
    runs.push(await run(server.url, hosting, `seed ${seeds[0]} again (used target)`, ["--seed", String(seeds[0])]));
    const report = compareVerdicts(runs);
    console.log(`\n${hosting}: ${runs.length} runs against one reference server\n${report.text}`);
    return report.same;
  } finally {
    await server.stop();
  }
}

/** Seeds records beyond the profile directly in the database, then runs the MUST checks only. */
async function outOfProfile(hosting: Hosting): Promise<boolean> {
  const dataDir = join(scratch, `data-${hosting}`);
  // The reference server checks its own answers against the full contract; this target serves what it stores.
  const server = await startChildServer({
    env: { HOSTING: hosting, READY_AFTER_MS: "200", DATA_DIR: dataDir, VALIDATE_RESPONSES: "false" },
  });
  try {
    const seeded = await outOfProfileRecords(server.url, hosting, demo.acme.apiKey, (id, change) => {
      const database = new Database(join(dataDir, "service.sqlite"));
      try {
        const row = database.prepare("SELECT rendered FROM deployments WHERE id = ?").get(id) as { rendered: string };
        const record = JSON.parse(row.rendered) as Record<string, unknown>;
        change(record);
        database.prepare("UPDATE deployments SET rendered = ? WHERE id = ?").run(JSON.stringify(record), id);
      } finally {
        database.close();
      }
    });
    const result = await run(server.url, hosting, "MUST after out-of-profile seeding", ["--level", "must"]);
    const failed = result.verdicts.filter((verdict) => verdict.level === "MUST" && verdict.status === "fail");
    const count = (status: string) => result.verdicts.filter((verdict) => verdict.status === status).length;
    console.log(
      `\n${hosting}: seeded ${seeded.join("; ")}\nMUST-only run: ${count("pass")} passed, ${failed.length} failed, ${count("skip")} skipped (${result.seconds.toFixed(0)} s)${failed.length > 0 ? `\nfailed: ${failed.map((verdict) => verdict.id).join(", ")}` : ""}`,
    );
    return failed.length === 0;
  } finally {
    await server.stop();
  }
}

await buildServerIfStale();
let ok = true;
for (const hosting of hostings)
  ok = (values["out-of-profile"] ? await outOfProfile(hosting) : await orders(hosting)) && ok;
const passed = values["out-of-profile"] ? "no MUST check failed" : "the same in every run";
console.log(ok ? `\nverdicts: ${passed}` : "\nverdicts: FAILED (see above)");
process.exit(ok ? 0 : 1);
