/** Tests of the suite's own runner: what a check's run turns into (pass, fail with its exchange, skip with its reason). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunConfig, resolveConfig } from "../cli/run-config.js";
import { type Check, type CheckContext, CheckFailure, type Need } from "./check.js";
import { runCheck, startRun } from "./runner.js";
import type { Verdict } from "./verdict.js";

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((_, res) => {
    res.setHeader("content-type", "application/json");
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
// each case is a run of its own: nothing an earlier test in this worker met (a stop, a gone target) carries over
beforeEach(() => startRun(config()));

function config(argv: string[] = []): RunConfig {
  return {
    ...resolveConfig(["--base-url", baseUrl, "--api-key", "k", ...argv], {}).config,
    runId: "r1",
    seed: 1,
  };
}

function check(run: (ctx: CheckContext) => Promise<void>, needs: Need[] = []): Check {
  return { id: "T-001", level: "MUST", tags: ["t"], statement: "a test check", specRef: "D-01", needs, run };
}

const send = (ctx: CheckContext) => ctx.send({ method: "GET", path: "/x" });

const cases: { name: string; given: Check; argv?: string[]; want: Partial<Verdict> & { message?: RegExp } }[] = [
  {
    name: "a run that returns passes",
    given: check(async (ctx) => void (await send(ctx))),
    want: { status: "pass", requests: 1 },
  },
  {
    name: "a CheckFailure fails with its exchange and a curl command",
    given: check(async (ctx) => {
      const exchange = await send(ctx);
      throw new CheckFailure("wrong answer", exchange);
    }),
    want: { status: "fail", requests: 1, message: /^wrong answer$/ },
  },
  {
    name: "any other error fails as an error of the check",
    given: check(async () => {
      throw new TypeError("boom");
    }),
    want: { status: "fail", requests: 0, message: /could not complete: TypeError: boom/ },
  },
  {
    name: "a skip at run time is a skip with its reason",
    given: check(async (ctx) => ctx.skip("too little data")),
    want: { status: "skip", skipReason: "too little data" },
  },
  {
    name: "an unmet need is a skip without running",
    given: check(async () => {
      throw new Error("must not run");
    }, ["write"]),
    argv: ["--read-only"],
    want: { status: "skip", skipReason: "creates records and --read-only is set" },
  },
];

/** A list request whose `{}` answer breaks the list schema (no resources, no offset). */
const list = (ctx: CheckContext) => ctx.send({ method: "GET", path: "/x", operation: "listDeployments" });
const breachMessage =
  /^the 200 answer of listDeployments does not match the interface-level \(D-220\) schema: \(root\) must have required property 'resources'/;

/** A check's own assertion is reported before a schema breach of an answer it saw (D-244). */
const breachCases: { name: string; run: (ctx: CheckContext) => Promise<void>; want: RegExp }[] = [
  {
    name: "a check that passes fails with the breach",
    run: async (ctx) => void (await list(ctx)),
    want: breachMessage,
  },
  {
    name: "the check's own assertion comes first",
    run: async (ctx) => {
      throw new CheckFailure("limit=0: expected an error, got 200", await list(ctx));
    },
    want: /^limit=0: expected an error, got 200$/,
  },
  {
    name: "an assertion about the missing field is explained by the breach",
    run: async (ctx) => {
      throw new CheckFailure("resources undefined is not an array", await list(ctx));
    },
    want: breachMessage,
  },
  {
    name: "a crash after the breach is explained by it",
    run: async (ctx) => {
      await list(ctx);
      throw new TypeError("cannot read properties of undefined");
    },
    want: breachMessage,
  },
  {
    name: "a skip after the breach is the breach",
    run: async (ctx) => {
      await list(ctx);
      ctx.skip("no verdict");
    },
    want: breachMessage,
  },
];

describe("runCheck with a schema breach", () => {
  for (const c of breachCases)
    it(c.name, async () => {
      const verdict = await runCheck(check(c.run), "tests", config(), new Map());
      expect(verdict.status).toBe("fail");
      expect(verdict.failure?.message).toMatch(c.want);
      expect(verdict.failure?.exchange?.request.url).toBe(`${baseUrl}/x`);
    });
});

describe("runCheck", () => {
  for (const c of cases)
    it(c.name, async () => {
      const verdict = await runCheck(c.given, "tests", config(c.argv), new Map());
      const { message, ...want } = c.want;
      expect(verdict).toMatchObject({ id: "T-001", level: "MUST", area: "tests", ...want });
      if (message) expect(verdict.failure?.message).toMatch(message);
      if (verdict.status === "fail" && verdict.requests) {
        expect(verdict.failure?.exchange?.response.status).toBe(200);
        expect(verdict.failure?.curl).toContain(`${baseUrl}/x`);
      }
      if (c.want.status === "fail" && !c.want.requests) expect(verdict.failure?.error).toBe(true);
    });

  it("shares fixtures between the checks given the same map", async () => {
    const fixtures = new Map<string, Promise<unknown>>();
    let made = 0;
    const uses = check(async (ctx) => {
      await ctx.fixture("set", async () => ++made);
    });
    await runCheck(uses, "tests", config(), fixtures);
    await runCheck(uses, "tests", config(), fixtures);
    expect(made).toBe(1);
  });

  it("shares a fixture of the run's scope between areas, and one of an area's scope only within its area", async () => {
    const run = new Map<string, Promise<unknown>>();
    const made = { run: 0, area: 0 };
    const uses = check(async (ctx) => {
      await ctx.fixture("record", async () => ++made.run, "run");
      await ctx.fixture("set", async () => ++made.area);
    });
    await runCheck(uses, "first", config(), new Map(), run);
    await runCheck(uses, "second", config(), new Map(), run);
    expect(made).toEqual({ run: 1, area: 2 });
  });
});
