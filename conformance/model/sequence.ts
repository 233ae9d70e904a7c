/**
 * Stateful generated runs: random sequences of creates, single pages and whole walks of the deployment list
 * (fast-check `fc.commands`), each answer judged against the model. A failing sequence is shrunk to the
 * shortest one that still fails and reported with the curl commands that replay it.
 */
import fc from "fast-check";
import { expect2xx, jsonObject } from "../check-kit/assert.js";
import { differences, paths } from "../check-kit/helpers.js";
import { toCurl } from "../report/curl.js";
import type { CheckContext } from "../runner/check.js";
import { CheckFailure } from "../runner/check.js";
import { isRefusal } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { deploymentBodies, limits, otherFilters } from "./arbitraries.js";
import { DeploymentModel, keptFields, type ListQuery } from "./deployment-model.js";

type Json = Record<string, unknown>;

/**
 * What a sequence judges. `must`: what the interface spec states (a page holds at most `limit`; walking with the
 * returned offset returns exactly the deployments asked for by id; a listed deployment equals its create answer).
 * `model`: everything the model knows (D-08 order, D-09 offsets, D-39 to D-43 filters), on every query.
 */
type Judge = "must" | "model";

/** One generated sequence against the target: its own name tag, model and exchanges. */
class Sequence {
  readonly model = new DeploymentModel();
  readonly exchanges: Exchange[] = [];
  constructor(
    readonly ctx: CheckContext,
    /** Prefix of every name this sequence creates; a list scoped by it sees nothing else. */
    readonly tag: string,
    readonly judge: Judge,
  ) {}

  async send(request: Parameters<CheckContext["send"]>[0]): Promise<Exchange> {
    const exchange = await this.ctx.send(request);
    this.exchanges.push(exchange);
    return exchange;
  }

  fail(message: string, exchange: Exchange): never {
    throw new CheckFailure(message, exchange);
  }

  /** Sends one list request and judges what every answer must hold; returns the page. */
  async page(query: ListQuery): Promise<{ exchange: Exchange; ids: string[]; offset: number }> {
    const exchange = await this.send({
      method: "GET",
      path: paths.deployments,
      query: wire(query),
      operation: "listDeployments",
    });
    expect2xx(exchange, "list deployments with valid parameters");
    const body = jsonObject(exchange, "list deployments");
    const resources = body.resources as Json[];
    const limit = query.limit ?? 20;
    if (resources.length > limit) this.fail(`a page of limit=${limit} holds ${resources.length} deployments`, exchange);
    for (const listed of resources) {
      const known = this.model.byId(String(listed.id));
      if (!known) continue;
      const diff = differences(listed, keptFields(known.record, this.judge === "model" ? "SHOULD" : "MUST"));
      if (diff.length > 0) this.fail(`${known.name} is listed unlike its create answer: ${diff.join("; ")}`, exchange);
      const moved = this.model.observe(listed);
      if (moved && this.judge === "model") this.fail(moved, exchange);
    }
    return { exchange, ids: resources.map((r) => String(r.id)), offset: body.offset as number };
  }
}

/** The query string of a model query: arrays comma-separated (D-64). */
function wire(query: ListQuery): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(",") : v;
  return out;
}

/** Creates one deployment with a generated body and records it in the model. */
class CreateCommand implements fc.AsyncCommand<Sequence, Sequence> {
  constructor(
    readonly body: Json,
    readonly suffix: string,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_: Sequence, s: Sequence): Promise<void> {
    const body: Json = { ...this.body, name: `${s.tag}${this.suffix}` };
    const exchange = await s.send({
      method: "POST",
      path: paths.deployments,
      json: body,
      operation: "createDeployment",
    });
    if (exchange.response.status === 409) return; // the generator drew a suffix twice
    // which fields each source requires is a decision (D-48), not the interface spec: at MUST a refused body is no
    // verdict (STATE-002 judges acceptance at SHOULD), only what an accepted one does afterwards
    if (s.judge === "must" && isRefusal(exchange)) return;
    expect2xx(exchange, `create a generated ${String(body.source)} deployment`);
    const answer = jsonObject(exchange, "create deployment");
    s.ctx.created({ kind: "deployment", id: String(answer.id), name: String(body.name), key: "main" });
    s.model.add(body, answer);
  }
  toString(): string {
    return `create(${String(this.body.source)} ${this.suffix})`;
  }
}

/** How a list query is tied to the sequence, so records of other runs never show: its name tag or its ids. */
interface Scope {
  /** A case-mixed needle: the tag, the tag plus a name's next characters, a part that is no prefix, or a probe with `%` / `_`. */
  needle: "tag" | "tag+" | "middle" | "upper" | "percent" | "underscore" | "none";
  /** Indexes (modulo the deployments created so far) of ids to ask for, plus maybe an id nobody has. */
  picks: number[];
  unknownId: boolean;
}

/** The query of a scope and filters, resolved against what the sequence created so far. */
function resolve(s: Sequence, scope: Scope, filters: ListQuery): ListQuery {
  const q: ListQuery = { ...filters };
  const created = s.model.deployments;
  if (scope.picks.length > 0 && created.length > 0) {
    q.deployment_ids = [...new Set(scope.picks.map((i) => created[i % created.length]!.id))];
    if (scope.unknownId) q.deployment_ids.push("00000000-0000-4000-8000-00000000c0de");
  }
  const first = created[scope.picks[0] ?? 0]?.name ?? s.tag;
  const needles: Record<Scope["needle"], string | undefined> = {
    tag: s.tag,
    "tag+": first.slice(0, s.tag.length + 2),
    // a substring that is no prefix (the run id makes it unique to this run)
    middle: s.tag.slice(s.ctx.prefix.indexOf("-") + 1),
    upper: s.tag.toUpperCase(),
    percent: `${s.tag}%`,
    underscore: `${s.tag.slice(0, -1)}_`,
    none: undefined,
  };
  const needle = needles[scope.needle] ?? (q.deployment_ids === undefined ? s.tag : undefined);
  if (needle !== undefined) q.name_contains = needle;
  return q;
}

/** Whether a query is judged at the MUST level: only `deployment_ids` (and the page) decide what it returns. */
function decidedBySpec(q: ListQuery): boolean {
  return (
    q.deployment_ids !== undefined && Object.keys(q).every((k) => ["deployment_ids", "limit", "offset"].includes(k))
  );
}

/** Lists one page and judges it against the model. */
class PageCommand implements fc.AsyncCommand<Sequence, Sequence> {
  constructor(
    readonly scope: Scope,
    readonly filters: ListQuery,
    readonly limit: number,
    readonly offset: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_: Sequence, s: Sequence): Promise<void> {
    const q = { ...resolve(s, this.scope, this.filters), limit: this.limit, offset: this.offset };
    const want = s.model.expectedPage(q);
    const got = await s.page(q);
    if (s.judge !== "model" || !want) return;
    const names = (ids: string[]) => ids.map((id) => s.model.byId(id)?.name ?? id).join(", ") || "nothing";
    if (JSON.stringify(got.ids) !== JSON.stringify(want.ids))
      s.fail(`the page holds ${names(got.ids)}; the model expects ${names(want.ids)}`, got.exchange);
    if (got.offset !== want.offset)
      s.fail(`the returned offset is ${got.offset}; D-09 makes it ${want.offset}`, got.exchange);
  }
  toString(): string {
    return `page(${JSON.stringify({ ...this.scope, ...this.filters, limit: this.limit, offset: this.offset })})`;
  }
}

/** Walks every page with the returned offset and judges the whole walk against the model. */
class WalkCommand implements fc.AsyncCommand<Sequence, Sequence> {
  constructor(
    readonly scope: Scope,
    readonly filters: ListQuery,
    readonly limit: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_: Sequence, s: Sequence): Promise<void> {
    const q = resolve(s, this.scope, s.judge === "must" ? {} : this.filters);
    const ids: string[] = [];
    let offset = 0;
    let last: Exchange | undefined;
    for (let pages = 0; pages <= s.model.deployments.length + 2; pages++) {
      const page = await s.page({ ...q, limit: this.limit, offset });
      last = page.exchange;
      ids.push(...page.ids);
      if (page.ids.length === 0 || page.offset <= offset) break;
      offset = page.offset;
    }
    if (!last) return;
    if (s.judge === "model") {
      const problems = s.model.walkProblems(q, ids);
      if (problems.length > 0) s.fail(`walking limit=${this.limit}: ${problems.join("; ")}`, last);
    } else if (decidedBySpec(q)) {
      const asked = new Set(q.deployment_ids);
      const want = s.model.deployments.filter((d) => asked.has(d.id)).map((d) => d.id);
      const problems = s.model
        .walkProblems({ deployment_ids: q.deployment_ids }, ids)
        .filter((p) => !p.includes("D-08"));
      if (problems.length > 0)
        s.fail(
          `walking deployment_ids (${want.length} created) with limit=${this.limit}: ${problems.join("; ")}`,
          last,
        );
    }
  }
  toString(): string {
    return `walk(${JSON.stringify({ ...this.scope, ...this.filters, limit: this.limit })})`;
  }
}

/** Scopes drawn with `constantFrom` (unbiased): mostly the tag itself, so that most lists have something to judge. */
const scopes: fc.Arbitrary<Scope> = fc.record({
  needle: fc.constantFrom("tag", "tag", "tag", "tag+", "middle", "upper", "upper", "percent", "underscore", "none"),
  picks: fc.constantFrom(0, 0, 1, 2, 3).chain((n) => fc.array(fc.nat(20), { minLength: n, maxLength: n })),
  unknownId: fc.boolean(),
});

/** The commands a sequence is drawn from. */
function commands(ctx: CheckContext, judge: Judge) {
  const filters: fc.Arbitrary<ListQuery> =
    judge === "must" ? fc.constant({}) : (otherFilters as fc.Arbitrary<ListQuery>);
  const mustScope = scopes.map((s) => ({ ...s, needle: "none" as const, picks: s.picks.length ? s.picks : [0] }));
  const scope = judge === "must" ? mustScope : scopes;
  const create = fc
    .tuple(deploymentBodies(ctx.config.hosting), fc.stringMatching(/^[a-z0-9]{4}$/))
    .map(([body, suffix]) => new CreateCommand(body, suffix));
  // creates drawn as often as lists, so that pages hold several deployments
  return [
    create,
    create,
    fc
      .tuple(scope, filters, limits, fc.constantFrom(0, 0, 0, 1, 2, 5))
      .map(([sc, f, l, o]) => new PageCommand(sc, f, l, o)),
    fc.tuple(scope, filters, fc.integer({ min: 1, max: 4 })).map(([sc, f, l]) => new WalkCommand(sc, f, l)),
  ];
}

let sequenceCount = 0;

/**
 * Runs `runs` generated sequences (seeded, at most 40 s) and throws a CheckFailure for the shortest failing one,
 * with its commands and the curl commands of its requests.
 */
export async function runSequences(ctx: CheckContext, judge: Judge, runs: number): Promise<void> {
  let failing: { sequence: Sequence; error: unknown } | undefined;
  const property = fc.asyncProperty(fc.commands(commands(ctx, judge), { maxCommands: 14 }), async (cmds) => {
    sequenceCount += 1;
    const sequence = new Sequence(ctx, `${ctx.prefix}${judge[0]}${sequenceCount}x`, judge);
    try {
      await fc.asyncModelRun(() => ({ model: sequence, real: sequence }), cmds);
    } catch (error) {
      failing = { sequence, error };
      throw error;
    }
  });
  const result = await fc.check(property, {
    seed: ctx.config.seed,
    numRuns: runs,
    interruptAfterTimeLimit: 40_000,
    markInterruptAsFailure: false,
  });
  ctx.note(`${result.numRuns} sequences, seed ${ctx.config.seed}${result.interrupted ? " (interrupted at 40 s)" : ""}`);
  if (!result.failed || !failing) return;
  const { sequence, error } = failing;
  const steps = String(result.counterexample?.[0] ?? "");
  const script = sequence.exchanges.map((e) => toCurl(e.request)).join("\n");
  ctx.note(`shortest failing sequence: ${steps}\n${script}`);
  const message = error instanceof Error ? error.message : String(error);
  throw new CheckFailure(
    `${message}\nshortest failing sequence (${sequence.exchanges.length} requests, seed ${ctx.config.seed}): ${steps}\n${script}`,
    error instanceof CheckFailure ? error.exchange : sequence.exchanges.at(-1),
  );
}
