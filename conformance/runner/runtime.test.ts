/** Tests of the check context: names a replay repeats (but for the run prefix), extra headers, the response-time bound. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunConfig, resolveConfig } from "../cli/run-config.js";
import { CheckFailure } from "./check.js";
import { startRun } from "./runner.js";
import { createContext } from "./runtime.js";

let server: Server;
let baseUrl: string;
const seen: Record<string, string | string[] | undefined>[] = [];

/** A deployment record legal under the interface spec, beyond the profile's bound on max_scale (D-133). */
const beyondProfile = {
  name: "legal",
  source: "external_container",
  source_config: { resource_spec: { max_scale: 101 } },
  source_revision_config: { image_uri: "registry.example/app:1" },
  secrets: [],
  id: "01a21495-30bd-7484-a7f5-30706d63f448",
  tenant_id: "6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f",
  created_at: "2026-11-25T21:20:51Z",
  updated_at: "2026-11-25T21:20:51Z",
  status: "READY",
  latest_revision_id: null,
  active_revision_id: null,
};
const answers: Record<string, unknown> = {
  "/oop-record": beyondProfile,
  "/oop-page": { resources: [beyondProfile], offset: 1 },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    // /slow answers after 80 ms; the bound below is 20 ms, the other path answers at once
    setTimeout(
      () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(answers[req.url ?? ""] ?? []));
      },
      req.url === "/slow" ? 80 : 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
// each case is a run of its own: nothing an earlier test in this worker met (a stop, a gone target) carries over
beforeEach(() => startRun(config("r0")));

function config(runId: string, argv: string[] = []): RunConfig {
  return { ...resolveConfig(["--base-url", baseUrl, "--api-key", "k", ...argv], {}).config, runId, seed: 1 };
}

describe("createContext", () => {
  it("makes the same names in a replay of a check, but for the run prefix", () => {
    const names = (runId: string, checkId: string) => {
      const ctx = createContext(config(runId), new Map(), { id: checkId, level: "MUST" });
      return [ctx.name("dep"), ctx.name("dep"), ctx.name("bad")];
    };
    expect(names("run001", "DEP-CREATE-003")).toEqual([
      "cf-run001-dep-depcreate0031",
      "cf-run001-dep-depcreate0032",
      "cf-run001-bad-depcreate0033",
    ]);
    expect(names("run002", "DEP-CREATE-003").map((n) => n.replace("run002", "run001"))).toEqual(
      names("run001", "DEP-CREATE-003"),
    );
    expect(names("run001", "DEP-CREATE-004")[0]).not.toBe(names("run001", "DEP-CREATE-003")[0]);
  });

  it("sends the -H headers on every request; a check's own header wins", async () => {
    const ctx = createContext(config("run003", ["-H", "X-Team: core", "-H", "Accept: text/plain"]), new Map(), {
      id: "X-001",
      level: "MUST",
    });
    await ctx.send({ method: "GET", path: "/v2/deployments" });
    await ctx.send({ method: "GET", path: "/v2/deployments", headers: { "X-Team": "mine" } });
    expect(seen.slice(-2).map((h) => [h["x-team"], h.accept])).toEqual([
      ["core", "text/plain"],
      ["mine", "text/plain"],
    ]);
    expect(ctx.exchanges.map((e) => e.operation)).toEqual(["listDeployments", "listDeployments"]);
  });

  it("fails the check whose answer is slower than --max-response-time", async () => {
    const ctx = createContext(config("run004", ["--max-response-time", "20"]), new Map(), {
      id: "X-002",
      level: "MUST",
    });
    await expect(ctx.send({ method: "GET", path: "/slow" })).rejects.toThrow(CheckFailure);
    await expect(ctx.send({ method: "GET", path: "/slow" })).rejects.toThrow(/more than --max-response-time 20 ms/);
  });
});

describe("the level of the contract that judges a 2xx answer (D-221)", () => {
  it.each([
    { level: "MUST", method: "GET", path: "/oop-page", operation: "listDeployments", fails: false },
    { level: "SHOULD", method: "GET", path: "/oop-page", operation: "listDeployments", fails: false },
    { level: "MUST", method: "POST", path: "/oop-record", operation: "createDeployment", fails: false },
    { level: "SHOULD", method: "POST", path: "/oop-record", operation: "createDeployment", fails: true },
  ] as const)("$level $method $operation: fails=$fails", async ({ level, method, path, operation, fails }) => {
    const ctx = createContext(config("run009"), new Map(), { id: "X-009", level });
    await ctx.send({ method, path, operation, ...(method === "POST" ? { json: {} } : {}) });
    // a breach is kept for the runner, which reports the check's own assertion first (D-244)
    const breaches = ctx.schemaBreaches.map((breach) => breach.message);
    if (fails) expect(breaches).toEqual([expect.stringMatching(/max_scale must be <= 100 \(D-65, D-133\)/)]);
    else expect(breaches).toEqual([]);
  });
});
