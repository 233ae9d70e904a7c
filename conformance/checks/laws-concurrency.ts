/**
 * Concurrency laws (LAW-001, LAW-002, LAW-017, D-370): creates and lists sent together in rounds of 8 to 16; every answer must
 * be explained by one order of the operations, consistent with real time, against the name-set model
 * (conformance/model/linearizability.ts). A record is never seen half-written or under another request's name, and a
 * 409 comes only with a conflicting name.
 */
import fc from "fast-check";
import { ensure, expect2xx, isObject, jsonObject } from "../check-kit/assert.js";
import { differences, type Json, listProviders, paths } from "../check-kit/helpers.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import { linearize, type Operation } from "../model/linearizability.js";
import { type NamedInput, type NamedOutput, nameSetModel } from "../model/name-set-model.js";
import { type Check, type CheckContext, CheckFailure } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { lawRuns, type Timed, timed } from "./laws-run.js";
import { holdsFor } from "./properties-run.js";

type Op = Operation<NamedInput, NamedOutput> & { exchange: Exchange };

/** The secret every create of a round carries, so a list that shows a record before it is whole is seen. */
const roundSecret = { name: "ROUND_SECRET", value: "round-value" };

/** Sends one create of `name` and reads its answer as the model's output; the answer must be this request's. */
async function createOp(ctx: CheckContext, name: string): Promise<Op> {
  const body: Json = { ...deploymentBody(name, plainSource(ctx.config.hosting)), secrets: [roundSecret] };
  const t: Timed = await timed(ctx, {
    method: "POST",
    path: paths.deployments,
    json: body,
    operation: "createDeployment",
  });
  const status = t.exchange.response.status;
  if (status < 300 && isObject(t.exchange.json)) {
    const record = t.exchange.json;
    ctx.created({ kind: "deployment", id: String(record.id), name, key: "main" });
    ensure(
      record.name === name && record.source === body.source,
      `the create of ${name} was answered with the record of ${String(record.name)} (${String(record.source)}): an answer of another request`,
      t.exchange,
    );
  }
  const output: NamedOutput =
    status < 300 ? { kind: "created" } : status === 409 ? { kind: "conflict" } : { kind: "refused" };
  return { input: { kind: "create", name }, output, ...t };
}

/** Lists the round's names (name_contains its stem, one page of 100). */
async function listOp(ctx: CheckContext, stem: string): Promise<Op> {
  const t = await timed(ctx, {
    method: "GET",
    path: paths.deployments,
    query: { name_contains: stem, limit: 100 },
    operation: "listDeployments",
  });
  expect2xx(t.exchange, `list deployments with name_contains ${stem} during a round of concurrent creates`);
  const resources = ((jsonObject(t.exchange, "list deployments").resources as Json[]) ?? []).filter((r) =>
    String(r.name).startsWith(stem),
  );
  // a record is listed whole or not at all: its source and its secret's name, as its create sent them
  for (const record of resources) {
    const secrets = Array.isArray(record.secrets) ? record.secrets.map((x) => (isObject(x) ? x.name : x)) : [];
    ensure(
      record.source === plainSource(ctx.config.hosting) && secrets.length === 1 && secrets[0] === roundSecret.name,
      `a list during the round showed ${String(record.name)} half-written: source ${JSON.stringify(record.source)}, secrets ${JSON.stringify(record.secrets)} (its create sent ${plainSource(ctx.config.hosting)} and one secret ${roundSecret.name})`,
      t.exchange,
    );
  }
  return { input: { kind: "list" }, output: { kind: "listed", names: resources.map((r) => String(r.name)) }, ...t };
}

/**
 * Runs `reads` one after another while `work` is in flight, at most `most` of them, then gives work's result and
 * what the reads gave. A pending `work` is awaited before a failed read leaves, so none of its failures is unobserved.
 */
async function whileInFlight<T, R>(work: Promise<T>, read: () => Promise<R>, most: number) {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  const reads: R[] = [];
  try {
    while (!settled && reads.length < most) reads.push(await read());
  } finally {
    await done.catch(() => undefined);
  }
  return { result: await done, reads };
}

/** One line per operation of a round, with its window relative to the round's start. */
function describe(history: readonly Op[]): string {
  const start = Math.min(...history.map((op) => op.invokedAt));
  return history
    .map((op, i) => {
      const what =
        op.input.kind === "create"
          ? `create ${op.input.name} → ${op.exchange.response.status}`
          : `list → [${op.output.kind === "listed" ? op.output.names.join(", ") : ""}]`;
      return `  #${i} ${what} (sent +${op.invokedAt - start} ms, answered +${op.answeredAt - start} ms)`;
    })
    .join("\n");
}

/** Judges a round's history against the model; a refused create body at MUST is no verdict (D-48, D-180). */
function judge(ctx: CheckContext, history: Op[], unique: boolean, law: string): void {
  const creates = history.filter((op) => op.input.kind === "create");
  const refused = creates.find((op) => op.output.kind === "refused");
  if (refused && !creates.some((op) => op.output.kind === "created"))
    noVerdictWhenBodyRefused(ctx, refused.exchange, plainSource(ctx.config.hosting));
  const verdict = linearize(nameSetModel(unique), history);
  if (verdict.kind === "unknown") {
    ctx.note(`a round of ${history.length} operations was cut at ${verdict.visited} states: no verdict for it`);
    return;
  }
  if (verdict.kind === "linearizable") return;
  const first = history.find((_, i) => !verdict.longestPrefix.includes(i)) ?? history[0]!;
  throw new CheckFailure(
    `${law}: no order of these ${history.length} concurrent operations, consistent with real time, explains every answer (the longest explained prefix: ${verdict.longestPrefix.map((i) => `#${i}`).join(" ") || "none"}):\n${describe(history)}`,
    first.exchange,
  );
}

/** LAW-001: a round of distinct-name creates and lists, sent together. */
async function createsAndListsLinearize(ctx: CheckContext): Promise<void> {
  const plan = fc
    .array(fc.boolean(), { minLength: 8, maxLength: 16 })
    .filter((ops) => ops.some((o) => o) && ops.some((o) => !o));
  await holdsFor(
    ctx,
    plan,
    async (ops) => {
      const stem = `${ctx.name("lz")}x`;
      // lists one after another while the round is in flight (at most 8), each read for records listed half-written;
      // they change no state, so leaving them out of the history keeps its verdict
      const { result: history } = await whileInFlight(
        Promise.all(ops.map((create, i) => (create ? createOp(ctx, `${stem}${i}`) : listOp(ctx, stem)))),
        () => listOp(ctx, stem),
        8,
      );
      // one list after the round: every create answered 2xx by then must show in it
      history.push(await listOp(ctx, stem));
      // every name a list showed is one this round created, listed once
      for (const op of history)
        if (op.output.kind === "listed")
          ensure(
            new Set(op.output.names).size === op.output.names.length,
            `a list during the round showed a name twice: ${op.output.names.join(", ")}`,
            op.exchange,
          );
      judge(ctx, history, false, "creates and lists sent together");
    },
    lawRuns(ctx),
  );
}

/** LAW-002: a round of creates drawing from three names, sent together: one 2xx per name, and 409 only for a taken one. */
async function conflictsOnlyForTakenNames(ctx: CheckContext): Promise<void> {
  const plan = fc
    .array(fc.integer({ min: 0, max: 2 }), { minLength: 8, maxLength: 12 })
    .filter((picks) => new Set(picks).size >= 2);
  await holdsFor(
    ctx,
    plan,
    async (picks) => {
      const stem = `${ctx.name("lc")}x`;
      const history = await Promise.all(picks.map((pick) => createOp(ctx, `${stem}${pick}`)));
      judge(ctx, history, true, "creates of repeated names sent together (D-22: a name is taken once)");
    },
    lawRuns(ctx),
  );
}

const tags = ["laws", "concurrency", "generated", "createDeployment", "listDeployments"];

/** How many provider creates LAW-017 sends together: few, since a run's providers count against the organization (D-245). */
const providerRound = 4;

/**
 * LAW-017: OAuth provider creates sent together are each answered with the record of what it sent (its own
 * provider_id, name and client_id), and each is listed once afterwards with that answer's id.
 */
async function providerCreatesAnsweredAlone(ctx: CheckContext): Promise<void> {
  const bodies = Array.from(
    { length: providerRound },
    (_, i): Json => ({
      ...providerBody(ctx.name(`together${i}`)),
      client_id: `client-together-${i}-${ctx.config.runId}`,
    }),
  );
  // lists one after another while the creates are in flight (at most 20): each round provider they show must be
  // whole, as its create sent it
  const { result: answers, reads: during } = await whileInFlight(
    Promise.all(
      bodies.map((body) =>
        ctx.send({ method: "POST", path: paths.providers, json: body, operation: "createOAuthProvider" }),
      ),
    ),
    () => ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" }),
    20,
  );
  for (const exchange of during) {
    expect2xx(exchange, `list providers during ${providerRound} concurrent creates`);
    const records = Array.isArray(exchange.json) ? exchange.json.filter(isObject) : [];
    for (const record of records) {
      const body = bodies.find((b) => b.provider_id === record.provider_id);
      if (!body) continue;
      const { client_secret: _, ...sent } = body;
      const diff = differences(record, sent);
      ensure(
        diff.length === 0,
        `a list sent during the round showed provider ${String(body.provider_id)} half-written: ${diff.slice(0, 3).join("; ")}`,
        exchange,
      );
    }
  }
  const ids = new Map<string, string>();
  for (const [i, exchange] of answers.entries()) {
    const body = bodies[i]!;
    expect2xx(exchange, `create provider ${String(body.provider_id)}, sent with ${providerRound - 1} others`);
    const record = jsonObject(exchange, "create provider");
    ctx.created({ kind: "oauth_provider", id: String(record.id), name: String(body.provider_id), key: "main" });
    const { client_secret: _, ...sent } = body;
    const diff = differences(record, sent);
    ensure(
      diff.length === 0,
      `the create of ${String(body.provider_id)}, sent together with ${providerRound - 1} others, was answered with another record: ${diff.slice(0, 3).join("; ")}`,
      exchange,
    );
    ids.set(String(body.provider_id), String(record.id));
  }
  const { exchange, records } = await listProviders(ctx);
  for (const [providerId, id] of ids) {
    const listed = records.filter((r) => r.provider_id === providerId);
    ensure(
      listed.length === 1 && listed[0]!.id === id,
      `provider ${providerId}, created together with others as ${id}, is listed ${listed.length} times${listed.length === 1 ? ` with id ${String(listed[0]!.id)}` : ""}`,
      exchange,
    );
  }
}

export const concurrencyLawChecks: Check[] = [
  {
    id: "LAW-001",
    level: "MUST",
    tags,
    statement:
      "Creates of distinct names and lists of them, 8 to 16 sent together, lists one after another while they are in flight (each record they show whole), then one list: some order consistent with real time explains every answer (a list shows exactly the creates before it, each record whole, with the source and secret its create sent; a refused create never shows), and each create is answered with its own record",
    specRef:
      "interface-spec: 6. Create a deployment (Response: one Deployment record); 5. List deployments; D-370 (a linearizability check)",
    needs: ["write", "state"],
    run: createsAndListsLinearize,
  },
  {
    id: "LAW-002",
    level: "SHOULD",
    tags,
    statement:
      "Creates of three names, each sent several times together: some order consistent with real time explains every answer, so each name is created once and a 409 comes only for a name another create took",
    specRef: "D-22 (409 for a name already used in the tenant), D-370",
    needs: ["write", "state"],
    run: conflictsOnlyForTakenNames,
  },
  {
    id: "LAW-017",
    level: "MUST",
    tags: ["laws", "concurrency", "createOAuthProvider", "listOAuthProviders"],
    statement: `${providerRound} OAuth provider creates sent together are each answered with the record of what it sent (its provider_id, name and client_id), and each is listed once afterwards with that answer's id; lists sent while they are in flight show each round provider whole (as its create sent it) or not at all`,
    specRef:
      "interface-spec: 1. Create an OAuth provider (Response: one OAuth provider response record); 2. List OAuth providers; D-370",
    needs: ["write", "state"],
    run: providerCreatesAnsweredAlone,
  },
];
