/** Tests of the check context: names a replay repeats (but for the run prefix), extra headers, the response-time bound. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckFailure } from "./check.js";
import { type RunConfig, resolveConfig } from "./config.js";
import { createContext } from "./runtime.js";

let server: Server;
let baseUrl: string;
const seen: Record<string, string | string[] | undefined>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    // /slow answers after 80 ms; the bound below is 20 ms, the other path answers at once
    setTimeout(
      () => {
        res.setHeader("content-type", "application/json");
        res.end("[]");
      },
      req.url === "/slow" ? 80 : 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
