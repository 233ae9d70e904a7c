/** The drift check of `npm run generate` and the breaking-change report of scripts/contract-diff.ts (contract issue, D-34). */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { diffContracts } from "./contract-diff.js";
import type { ContractChange } from "./contract-diff.js";
import type { OpenApiDocument } from "./openapi-document.js";

const root = resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "generate-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `scripts/generate.ts --check` on a directory; resolves to its exit code and output. */
async function check(dir?: string): Promise<{ code: number; output: string }> {
  const args = [join(root, "node_modules", "tsx", "dist", "cli.mjs"), join(root, "scripts", "generate.ts"), "--check", ...(dir ? ["--out", dir] : [])];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("npm run check:generated", () => {
  it.each([
    { name: "the committed generated/", edit: undefined, want: { code: 0, output: /generated\/ matches spec\// } },
    { name: "a hand-edited types.ts", edit: { file: "types.ts", append: "\n// edited by hand\n" }, want: { code: 1, output: /stale: types\.ts differ/ } },
    { name: "an openapi.json with a field removed", edit: { file: "openapi.json", remove: '"image_version"' }, want: { code: 1, output: /stale: openapi\.json differ/ } },
  ])("on $name exits $want.code", async ({ name, edit, want }) => {
    let dir: string | undefined;
    if (edit) {
      dir = join(scratch, name.replace(/\W+/g, "-"));
      cpSync(join(root, "generated"), dir, { recursive: true });
      const path = join(dir, edit.file);
      const text = readFileSync(path, "utf8");
      writeFileSync(path, "append" in edit ? text + edit.append : text.replace(edit.remove!, '"image_version_removed"'));
    }
    const result = await check(dir);
    expect(result.output).toMatch(want.output);
    expect(result.code).toBe(want.code);
  }, 120_000);
});

describe("diffContracts", () => {
  type Doc = Record<string, any>;
  const base = JSON.parse(readFileSync(join(root, "generated", "openapi.json"), "utf8")) as Doc;
  const schemas = (doc: Doc) => doc.components.schemas as Doc;

  it("finds no change between a document and itself", () => {
    expect(diffContracts(base as OpenApiDocument, structuredClone(base) as OpenApiDocument)).toEqual([]);
  });

  it.each<{ name: string; change: (doc: Doc) => void; want: ContractChange }>([
    { name: "field removed", change: (doc) => delete schemas(doc).Deployment.properties.image_version, want: { breaking: true, where: "Deployment.image_version", what: "field removed" } },
    { name: "field added", change: (doc) => (schemas(doc).Deployment.properties.region = { type: "string" }), want: { breaking: false, where: "Deployment.region", what: "field added" } },
    { name: "enum value removed", change: (doc) => (schemas(doc).DeploymentStatus.enum = schemas(doc).DeploymentStatus.enum.filter((value: string) => value !== "UNUSED")), want: { breaking: true, where: "DeploymentStatus", what: 'enum value "UNUSED" removed' } },
    { name: "enum value added", change: (doc) => schemas(doc).DeploymentType.enum.push("enterprise"), want: { breaking: false, where: "DeploymentType", what: 'enum value "enterprise" added' } },
    { name: "became required", change: (doc) => schemas(doc).DeploymentCreate.required.push("secret_references"), want: { breaking: true, where: "DeploymentCreate.secret_references", what: "became required" } },
    { name: "nullable removed", change: (doc) => (schemas(doc).SourceConfig.properties.repo_url = { type: "string", maxLength: 2048 }), want: { breaking: true, where: "SourceConfig.repo_url", what: "no longer nullable" } },
    { name: "type changed", change: (doc) => (schemas(doc).CodehostRepository.properties.id = { type: "string" }), want: { breaking: true, where: "CodehostRepository.id", what: "type integer:int64 became string" } },
    { name: "schema removed", change: (doc) => delete schemas(doc).ListenerConfig, want: { breaking: true, where: "ListenerConfig", what: "schema removed" } },
    { name: "operation removed", change: (doc) => delete doc.paths["/v2/auth/providers"].get, want: { breaking: true, where: "listOAuthProviders", what: "operation removed (GET /v2/auth/providers)" } },
    { name: "operation moved", change: (doc) => ((doc.paths["/v1/repos/{integration_id}"] = doc.paths["/v1/integrations/codehost/{integration_id}/repos"]), delete doc.paths["/v1/integrations/codehost/{integration_id}/repos"]), want: { breaking: true, where: "listCodehostRepositories", what: "moved from GET /v1/integrations/codehost/{integration_id}/repos to GET /v1/repos/{integration_id}" } },
    { name: "success status changed", change: (doc) => { const responses = doc.paths["/v2/deployments"].post.responses; responses["200"] = responses["201"]; delete responses["201"]; }, want: { breaking: true, where: "createDeployment", what: "success status 201 became 200" } },
    { name: "optional parameter added", change: (doc) => doc.paths["/v2/deployments"].get.parameters.push({ name: "sort", in: "query", required: false, schema: { type: "string" } }), want: { breaking: false, where: "listDeployments", what: "optional query parameter sort added" } },
    { name: "required parameter added", change: (doc) => doc.paths["/v2/deployments"].get.parameters.push({ name: "project", in: "query", required: true, schema: { type: "string" } }), want: { breaking: true, where: "listDeployments", what: "required query parameter project added" } },
    { name: "parameter removed", change: (doc) => (doc.paths["/v2/deployments"].get.parameters = doc.paths["/v2/deployments"].get.parameters.filter((parameter: Doc) => !String(parameter.$ref).endsWith(".image_version"))), want: { breaking: true, where: "listDeployments", what: "query parameter image_version removed" } },
  ])("$name → $want.what", ({ change, want }) => {
    const after = structuredClone(base);
    change(after);
    expect(diffContracts(base as OpenApiDocument, after as OpenApiDocument)).toEqual([want]);
  });
});
