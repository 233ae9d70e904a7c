/** The published package: `npm pack` ships the suite, the contract and the generated files only, and the installed command judges a target over HTTP. */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../../mock/src/mock.js";
import { demoFlags } from "../../tools/harness/demo-flags.js";

// Asynchronous on purpose: the mock answers from this process, so a synchronous child would block it.
const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
/** Installing pulls vitest, tsx, Ajv and fast-check from the registry. */
const installTimeoutMs = 300_000;

let workDir: string;
let tarballEntries: string[];
let command: string;
let mock: RunningMock;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "conformance-package-"));
  const packed = await run("npm", ["pack", "--json", "--pack-destination", workDir], { cwd: repositoryRoot });
  const tarball = join(workDir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  tarballEntries = (await run("tar", ["-tzf", tarball])).stdout.split("\n").filter((entry) => entry !== "");
  const installDir = join(workDir, "install");
  mkdirSync(installDir);
  await run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: installDir, timeout: installTimeoutMs });
  command = join(installDir, "node_modules", ".bin", "deployment-conformance");
  mock = await startMock({ port: 0 });
}, installTimeoutMs + 60_000);

afterAll(async () => {
  await mock?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("the published package", () => {
  it("ships no test, no server and no repository tool", () => {
    const files = tarballEntries.map((entry) => entry.replace(/^package\//, ""));
    expect(files).toContain("bin/conformance.mjs");
    expect(files).toContain("conformance/cli.ts");
    expect(files).toContain("contract/index.ts");
    expect(files).toContain("generated/operations.json");
    expect(files.filter((file) => file.endsWith(".test.ts"))).toEqual([]);
    expect(files.filter((file) => file.startsWith("server/") || file.startsWith("scripts/"))).toEqual([]);
  });

  it("lists the checks", async () => {
    const { stdout } = await run(command, ["--list"], { timeout: 60_000 });
    expect(stdout).toMatch(/^AUTH-001\s+(MUST|SHOULD)/m);
    expect(stdout).toMatch(/^DEP-LIST-001\s/m);
  }, 60_000);

  it("judges the static mock and passes", async () => {
    // execFile rejects on a non-zero exit; the output then names the failing checks.
    const { stdout } = await run(command, [...demoFlags(mock.url), "--stateless", "--quiet"], { timeout: 240_000 });
    expect(stdout).toContain("Every selected MUST check passed.");
  }, 240_000);
});
