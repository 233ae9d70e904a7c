/** The vitest adapter gives every check the verdict the suite's own runner gives it: pass, fail or skip, check by check. */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../../conformance/cli/conformance-command.js";
import { configFromObject } from "../../conformance/cli/run-config.js";
import { demo } from "../../contract/index.js";
import {
  type RunningMemorySandbox as RunningSandbox,
  startMemorySandbox as startSandbox,
} from "../../mock/src/engine/memory-sandbox-server.js";

// Asynchronous on purpose: the sandbox answers from this process, so a synchronous child would block it.
const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixtureConfig = fileURLToPath(new URL("./adapter-fixture/vitest.config.ts", import.meta.url));

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ hosting: "cloud", readyAfterMs: 200 });
  workDir = mkdtempSync(join(tmpdir(), "conformance-adapter-"));
});
afterAll(async () => {
  await sandbox?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The status of each check as the adapter's vitest run reports it, by check id. */
async function adapterStatuses(options: object, name: string): Promise<Record<string, string>> {
  const report = join(workDir, `${name}.json`);
  // vitest exits 1 when a test failed; the report says which
  await run(
    process.execPath,
    [join(repositoryRoot, "node_modules/vitest/vitest.mjs"), "run", "--config", fixtureConfig],
    {
      cwd: repositoryRoot,
      env: { ...process.env, ADAPTER_OPTIONS: JSON.stringify(options), ADAPTER_REPORT: report },
      timeout: 180_000,
    },
  ).catch((error: { code?: number }) => {
    if (error.code !== 1) throw error;
  });
  const json = JSON.parse(readFileSync(report, "utf8")) as {
    testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
  };
  const statuses: Record<string, string> = {};
  for (const test of json.testResults.flatMap((file) => file.assertionResults)) {
    const id = test.title.split(" ")[0]!;
    statuses[id] = test.status === "passed" ? "pass" : test.status === "failed" ? "fail" : "skip";
  }
  return statuses;
}

const cases: { name: string; given: Record<string, unknown>; wantSome: "fail" | "pass" }[] = [
  // the sandbox is cloud-hosted: the checks pass
  { name: "matching hosting", given: { hosting: "cloud" }, wantSome: "pass" },
  // judged as self_hosted, the cloud sandbox refuses what self-hosted services must accept: failures
  { name: "wrong hosting", given: { hosting: "self_hosted" }, wantSome: "fail" },
];

describe("the vitest adapter", () => {
  for (const c of cases)
    it(`gives the runner's verdicts (${c.name})`, async () => {
      const options = {
        baseUrl: sandbox.url,
        apiKey: demo.acme.apiKey,
        integrationId: demo.acme.plainIntegrationId,
        only: ["DEP-CREATE", "PROV-CREATE"],
        seed: 7,
        ...c.given,
      };
      const { result } = await runConformance(configFromObject(options));
      const want = Object.fromEntries(result.verdicts.map((v) => [v.id, v.status]));
      const got = await adapterStatuses(options, c.name.replace(/ /g, "-"));
      const selected = Object.fromEntries(Object.keys(want).map((id) => [id, got[id]]));
      expect(selected).toEqual(want);
      expect(Object.values(want)).toContain(c.wantSome);
      // every other check is registered and skipped as not selected
      expect(Object.keys(got).length).toBeGreaterThan(Object.keys(want).length);
      expect(Object.entries(got).filter(([id, status]) => !(id in want) && status !== "skip")).toEqual([]);
    }, 240_000);
});
