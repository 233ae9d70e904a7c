/** Tests of no verdict at MUST (D-180) and of status checks that judge only while statuses hold still (D-181). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDeployment } from "../check-kit/helpers.js";
import { whileStatusesHold } from "../check-kit/settle.js";
import { type RunConfig, resolveConfig } from "../cli/run-config.js";
import type { Exchange } from "../target/http-exchange.js";
import { CheckFailure, CheckSkip, type Level } from "./check.js";
import { isNoVerdict, isRefusal, judgeEach, noVerdictPrefix } from "./no-verdict.js";
import { startRun } from "./runner.js";
import { createContext } from "./runtime.js";

const deploymentId = "00000000-0000-4000-8000-00000000d001";

/** A deployment record the contract's schema accepts, in a given status. */
const record = (status: string | undefined) => ({
  id: deploymentId,
  tenant_id: "00000000-0000-4000-8000-00000000e001",
  name: "cf-nv0001-dep",
  source: "internal_template",
  source_config: {},
  source_revision_config: {},
  secrets: [],
  created_at: "2026-11-25T00:00:00Z",
  updated_at: "2026-11-25T00:00:00Z",
  status,
  latest_revision_id: "00000000-0000-4000-8000-00000000f001",
  active_revision_id: null,
});

/** What the stand-in target answers: the status a create gets, and the statuses successive lists report. */
let createStatus = 201;
let statuses: string[] = [];

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.method === "POST") {
      res.statusCode = createStatus;
      res.end(JSON.stringify(createStatus === 201 ? record("AWAITING_DATABASE") : { title: "refused" }));
      return;
    }
    // one deployment: a page past it is empty; each first page reports the next scripted status, the last one holds
    if (new URL(req.url ?? "/", baseUrl).searchParams.get("offset") === "1") {
      res.end(JSON.stringify({ resources: [], offset: 1 }));
      return;
    }
    const status = statuses.length > 1 ? statuses.shift() : statuses[0];
    res.end(JSON.stringify({ resources: [record(status)], offset: 1 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
// each case is a run of its own: nothing an earlier test in this worker met (a stop, a gone target) carries over
beforeEach(() => {
  startRun(config());
  createStatus = 201;
  statuses = ["READY"];
});

function config(argv: string[] = []): RunConfig {
  return { ...resolveConfig(["--base-url", baseUrl, "--api-key", "k", ...argv], {}).config, runId: "nv0001", seed: 1 };
}

const context = (level: Level, argv: string[] = [], fixtures = new Map<string, Promise<unknown>>()) =>
  createContext(config(argv), fixtures, { id: "T-001", level });

const answer = (status: number) => ({ response: { status, headers: {}, body: "" } }) as unknown as Exchange;

/** What a promise settles to: "pass", "skip: reason" or "fail: message". */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "pass";
  } catch (error) {
    if (error instanceof CheckSkip) return `skip: ${error.reason}`;
    if (error instanceof CheckFailure) return `fail: ${error.message}`;
    throw error;
  }
}

describe("isRefusal", () => {
  const cases: { given: number; want: boolean }[] = [
    { given: 400, want: true },
    { given: 409, want: true },
    { given: 422, want: true },
    { given: 401, want: false },
    { given: 403, want: false },
    { given: 404, want: false },
    { given: 405, want: false },
    { given: 201, want: false },
    { given: 500, want: false },
  ];
  for (const c of cases) it(`${c.given} → ${c.want}`, () => expect(isRefusal(answer(c.given))).toBe(c.want));
});

describe("a refused create body (D-48)", () => {
  const cases: { name: string; level: Level; status: number; want: RegExp }[] = [
    {
      name: "is no verdict at MUST, naming the SHOULD check",
      level: "MUST",
      status: 422,
      want: /^skip: no verdict at MUST: .*internal_template.*\(422\).*DEP-CREATE-029 judges it at SHOULD/,
    },
    { name: "fails at SHOULD", level: "SHOULD", status: 422, want: /^fail: .*expected a 2xx answer, got 422/ },
    { name: "is judged at MUST when it is a 403", level: "MUST", status: 403, want: /^fail: .*got 403/ },
    { name: "is judged at MUST when it is a 500", level: "MUST", status: 500, want: /^fail: .*got 500/ },
    { name: "an accepted body passes at MUST", level: "MUST", status: 201, want: /^pass$/ },
  ];
  for (const c of cases)
    it(c.name, async () => {
      createStatus = c.status;
      expect(await outcome(createDeployment(context(c.level)))).toMatch(c.want);
    });

  it("a fixture that came to no verdict is made again for the next check", async () => {
    const fixtures = new Map<string, Promise<unknown>>();
    createStatus = 422;
    const first = context("MUST", [], fixtures);
    expect(await outcome(first.fixture("set", () => createDeployment(first)))).toMatch(/^skip: no verdict/);
    createStatus = 201;
    const next = context("SHOULD", [], fixtures);
    expect(await outcome(next.fixture("set", () => createDeployment(next)))).toBe("pass");
  });
});

describe("judgeEach", () => {
  const noVerdict = new CheckSkip(`${noVerdictPrefix}: refused`);
  const cases: { name: string; given: ("pass" | "none" | "fail")[]; want: RegExp }[] = [
    { name: "every item judged", given: ["pass", "pass"], want: /^pass$/ },
    { name: "one item without a verdict, the other judged", given: ["none", "pass"], want: /^pass$/ },
    { name: "no item with a verdict", given: ["none", "none"], want: /^skip: no verdict at MUST/ },
    { name: "a failure after an item without a verdict", given: ["none", "fail"], want: /^fail: wrong/ },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const got = await outcome(
        judgeEach(context("MUST"), c.given, async (item) => {
          if (item === "none") throw noVerdict;
          if (item === "fail") throw new CheckFailure("wrong");
        }),
      );
      expect(got).toMatch(c.want);
    });
  it("tells a no-verdict skip from another skip", () => {
    expect(isNoVerdict(noVerdict)).toBe(true);
    expect(isNoVerdict(new CheckSkip("needs --integration-id"))).toBe(false);
  });
});

describe("whileStatusesHold", () => {
  const cases: { name: string; given: { statuses: string[]; settleMs: number }; want: RegExp; rounds: number }[] = [
    {
      name: "statuses that hold: one round, its outcome kept",
      given: { statuses: ["READY"], settleMs: 5000 },
      want: /^fail: judged READY$/,
      rounds: 1,
    },
    {
      name: "a status that moves during the first round: that round is dropped, the next one judged",
      // round 1 reads AWAITING_DATABASE before and READY after; round 2 reads READY twice
      given: { statuses: ["AWAITING_DATABASE", "READY"], settleMs: 5000 },
      want: /^fail: judged READY$/,
      rounds: 2,
    },
    {
      name: "statuses that never hold within --settle-ms: a skip naming the flag",
      given: { statuses: ["AWAITING_DATABASE", "READY"], settleMs: 0 },
      want: /^skip: the statuses of 1 deployment\(s\) moved during each of 1 round\(s\) within --settle-ms 0/,
      rounds: 1,
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      statuses = [...c.given.statuses];
      let rounds = 0;
      const ctx = context("MUST", ["--settle-ms", String(c.given.settleMs)]);
      const got = await outcome(
        whileStatusesHold(ctx, [deploymentId], async (seen) => {
          rounds += 1;
          throw new CheckFailure(`judged ${String(seen.get(deploymentId))}`);
        }),
      );
      expect(got).toMatch(c.want);
      expect(rounds).toBe(c.rounds);
    });
});
