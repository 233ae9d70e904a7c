/** The drift check of `npm run generate` and the change list it prints (D-34, D-82). */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { scaledMs } from "../common/machine-time.js";
import { operationList } from "../contract/operations.js";
import { type ContractChange, classifyChanges } from "./contract-classify.js";
import { dereference } from "./contract-dereference.js";
import { formatChanges } from "./contract-report.js";

const root = resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "generate-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `generator/generate.ts --check` on directories (generated/ when none); resolves to its exit code and output. */
async function check(dirs: string[] = []): Promise<{ code: number; output: string }> {
  const args = [
    join(root, "node_modules", "tsx", "dist", "cli.mjs"),
    join(root, "generator", "generate.ts"),
    "--check",
    ...dirs.flatMap((dir) => ["--out", dir]),
  ];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** A copy of generated/ with one file edited; its path. */
function editedCopy(name: string, edit: { file: string; append?: string; remove?: string }): string {
  const dir = join(scratch, name);
  cpSync(join(root, "generated"), dir, { recursive: true });
  const path = join(dir, edit.file);
  const text = readFileSync(path, "utf8");
  writeFileSync(path, edit.append ? text + edit.append : text.replace(edit.remove!, '"image_version_removed"'));
  return dir;
}

describe("npm run check:generated", () => {
  it(
    "on the committed generated/ exits 0",
    async () => {
      const result = await check();
      expect(result.output).toMatch(/generated\/ matches spec\//);
      expect(result.code).toBe(0);
    },
    scaledMs(120_000),
  );

  // Each generation costs seconds of CPU: one run checks every edited copy, and names each that is stale.
  it(
    "on copies edited by hand exits 1 and names each copy and its file",
    async () => {
      const edited = [
        { name: "types-edited", edit: { file: "types.ts", append: "\n// edited by hand\n" }, want: "types.ts" },
        { name: "field-removed", edit: { file: "openapi.json", remove: '"image_version"' }, want: "openapi.json" },
      ];
      const result = await check(edited.map(({ name, edit }) => editedCopy(name, edit)));
      for (const { name, want } of edited)
        expect(result.output).toMatch(new RegExp(`${name}/ is stale: ${want} differ`));
      expect(result.code).toBe(1);
    },
    scaledMs(120_000),
  );
});

describe("the change list of npm run generate (generator/contract-classify.ts, D-82)", () => {
  type Doc = Record<string, any>;
  const baseText = readFileSync(join(root, "generated", "openapi.json"), "utf8");
  const schemas = (doc: Doc) => doc.components.schemas as Doc;
  const changesAfter = async (change: (doc: Doc) => void): Promise<string[]> => {
    const after = JSON.parse(baseText) as Doc;
    change(after);
    const list = classifyChanges(await dereference(baseText), await dereference(JSON.stringify(after)));
    return list.map((found: ContractChange) => `${found.severity} ${found.rule} ${found.location}`).sort();
  };

  it.each<{ name: string; change: (doc: Doc) => void; want: string[] }>([
    { name: "no change", change: () => {}, want: [] },
    {
      name: "enum value added to a response-only enum",
      change: (doc) => schemas(doc).ProblemType.enum.push("urn:deployment-service:problem:gone"),
      // Every operation answers problems: the operation table's ids.
      want: operationList
        .map(({ id }) => id)
        .map((id) => `breaking response-enum-widened ${id} response body.type`)
        .sort(),
    },
    {
      name: "enum value added to a request-only enum",
      change: (doc) => schemas(doc).DeploymentType.enum.push("enterprise"),
      want: ["compatible request-enum-widened listDeployments request query.deployment_type"],
    },
    {
      name: "DeploymentName maxLength 63 → 10",
      change: (doc) => (schemas(doc).DeploymentName.maxLength = 10),
      want: ["breaking request-constraint-tightened createDeployment request body.name"],
    },
    {
      name: "optional request field added",
      change: (doc) => (schemas(doc).DeploymentCreate.properties.region = { type: "string" }),
      want: ["compatible request-optional-added createDeployment request body.region"],
    },
  ])("$name", async ({ change, want }) => {
    expect(await changesAfter(change)).toEqual(want);
  });

  it("prints the list grouped by severity", async () => {
    const after = JSON.parse(baseText) as Doc;
    schemas(after).DeploymentName.maxLength = 10;
    schemas(after).DeploymentCreate.properties.region = { type: "string" };
    const text = formatChanges(classifyChanges(await dereference(baseText), await dereference(JSON.stringify(after))));
    expect(text).toBe(
      "BREAKING (1)\n  request-constraint-tightened createDeployment request body.name: maxLength 63 → 10 (DeploymentCreate › DeploymentName)\n" +
        "COMPATIBLE (1)\n  request-optional-added createDeployment request body.region: optional field added (DeploymentCreate)\n",
    );
  });
});
