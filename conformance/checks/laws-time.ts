/**
 * Time laws (LAW-007, LAW-008, LAW-015): a record's timestamps lie inside the wall-clock window of the request that
 * made it (give or take --clock-tolerance-ms), created_at <= updated_at, every answer writes its times with one
 * precision, every list is ordered by the times it shows (D-372), and a read moves no time (D-453).
 */
import { ensure, expect2xx, jsonArray, jsonObject } from "../check-kit/assert.js";
import {
  createProvider,
  differences,
  instant,
  type Json,
  listDeployments,
  listProviders,
  paths,
} from "../check-kit/helpers.js";
import { whileStatusesHold } from "../check-kit/settle.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import { runTimes } from "../model/run-times.js";
import type { Check, CheckContext } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { type Timed, timed } from "./laws-run.js";

/** A record the laws made, with the window of its create. */
interface Made extends Timed {
  record: Json;
  kind: "deployment" | "oauth_provider";
}

/** Two deployments and one OAuth provider, created once per area with their windows. */
function madeRecords(ctx: CheckContext): Promise<Made[]> {
  return ctx.fixture("law-timed-records", async () => {
    const made: Made[] = [];
    for (let i = 0; i < 2; i++) {
      const body = deploymentBody(ctx.name("clock"), plainSource(ctx.config.hosting));
      const t = await timed(ctx, {
        method: "POST",
        path: paths.deployments,
        json: body,
        operation: "createDeployment",
      });
      noVerdictWhenBodyRefused(ctx, t.exchange, body.source);
      expect2xx(t.exchange, "create a deployment");
      const record = jsonObject(t.exchange, "create deployment");
      ctx.created({ kind: "deployment", id: String(record.id), name: String(body.name), key: "main" });
      made.push({ ...t, record, kind: "deployment" });
    }
    const body = providerBody(ctx.name("clock"));
    const t = await timed(ctx, { method: "POST", path: paths.providers, json: body, operation: "createOAuthProvider" });
    expect2xx(t.exchange, "create an OAuth provider");
    const record = jsonObject(t.exchange, "create OAuth provider");
    ctx.created({ kind: "oauth_provider", id: String(record.id), name: String(body.provider_id), key: "main" });
    made.push({ ...t, record, kind: "oauth_provider" });
    return made;
  });
}

const ms = 1_000_000n;

/**
 * LAW-007: created_at and updated_at of each create answer within its window, created_at <= updated_at there and in
 * the lists, and no time of any answer of the run after that answer arrived.
 */
async function timesInsideTheirWindow(ctx: CheckContext): Promise<void> {
  const tolerance = BigInt(ctx.config.clockToleranceMs) * ms;
  for (const made of await madeRecords(ctx)) {
    const from = BigInt(made.invokedAt) * ms - tolerance;
    const to = BigInt(made.answeredAt) * ms + tolerance;
    const what = `the ${made.kind === "deployment" ? "deployment" : "OAuth provider"} created between ${new Date(made.invokedAt).toISOString()} and ${new Date(made.answeredAt).toISOString()}`;
    for (const field of ["created_at", "updated_at"] as const) {
      const at = instant(made.record[field]);
      ensure(
        at !== undefined && at >= from && at <= to,
        `${what} has ${field} ${String(made.record[field])}, outside its request's wall-clock window by more than --clock-tolerance-ms ${ctx.config.clockToleranceMs}`,
        made.exchange,
      );
    }
  }
  for (const { exchange, records } of await listings(ctx))
    for (const r of records) {
      const created = instant(r.created_at);
      const updated = instant(r.updated_at);
      ensure(
        created !== undefined && updated !== undefined && created <= updated,
        `${String(r.name)} has created_at ${String(r.created_at)} after updated_at ${String(r.updated_at)}`,
        exchange,
      );
    }
  const impossible = runTimes(ctx.config).first;
  if (impossible) ensure(false, `an answer of the run: ${impossible.why}`, impossible.exchange);
}

/** The first page of deployments and the providers list, with their records. */
async function listings(ctx: CheckContext): Promise<{ exchange: Exchange; records: Json[]; kind: string }[]> {
  const deployments = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query: { limit: 100 },
    operation: "listDeployments",
  });
  expect2xx(deployments, "list deployments");
  const providers = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
  expect2xx(providers, "list OAuth providers");
  return [
    {
      exchange: deployments,
      records: (jsonObject(deployments, "list deployments").resources as Json[]) ?? [],
      kind: "deployments",
    },
    { exchange: providers, records: jsonArray(providers, "list OAuth providers") as Json[], kind: "providers" },
  ];
}

/** The written form of a timestamp with its digits blanked: one precision and one zone notation give one form. */
const form = (value: unknown) => String(value).replace(/\d/g, "9");

/** LAW-008: one timestamp form in every answer, and each list ordered by the created_at it shows (D-08). */
async function onePrecisionAndShownOrder(ctx: CheckContext): Promise<void> {
  const made = await madeRecords(ctx);
  const forms = new Map<string, string>();
  const see = (value: unknown, where: string, exchange: Exchange) => {
    const f = form(value);
    forms.set(f, forms.get(f) ?? where);
    ensure(
      forms.size === 1,
      `timestamps are written in ${forms.size} forms: ${[...forms].map(([f, w]) => `${f} (${w})`).join(", ")}`,
      exchange,
    );
  };
  for (const m of made)
    for (const field of ["created_at", "updated_at"] as const)
      see(m.record[field], `${field} of a ${m.kind} create answer`, m.exchange);
  for (const { exchange, records, kind } of await listings(ctx)) {
    for (const r of records)
      for (const field of ["created_at", "updated_at"] as const)
        see(r[field], `${field} in the ${kind} list`, exchange);
    // D-08: deployments newest first, providers oldest first, by the times the list shows
    const times = records.map((r) => instant(r.created_at) ?? 0n);
    const wrong = times.findIndex((t, i) => i > 0 && (kind === "deployments" ? t > times[i - 1]! : t < times[i - 1]!));
    ensure(
      wrong < 0,
      `the ${kind} list is not ordered by the created_at it shows (D-08): ${String(records[wrong - 1]?.created_at)} then ${String(records[wrong]?.created_at)}`,
      exchange,
    );
  }
}

/** Between the two reads of LAW-015: long enough that a time stamped at each read differs in its milliseconds. */
const apartMs = 30;

/**
 * LAW-015: each record read twice, apart, with no write and no status change between, comes back the same, and again
 * after a provider create, a write it does not depend on (D-453).
 */
async function readsMoveNothing(ctx: CheckContext): Promise<void> {
  const made = await madeRecords(ctx);
  const ids = made.filter((m) => m.kind === "deployment").map((m) => String(m.record.id));
  const pause = () => new Promise((resolve) => setTimeout(resolve, apartMs));
  const compare = (first: Json[], second: Json[], what: string, exchange: Exchange) => {
    for (const before of first) {
      const after = second.find((r) => r.id === before.id);
      ensure(after !== undefined, `${what}: ${String(before.id)} is listed by the first read only`, exchange);
      const moved = differences(after, before);
      ensure(
        moved.length === 0,
        `${what}: ${String(before.id)} changed between two reads ${apartMs} ms apart with nothing of theirs written between: ${moved.slice(0, 3).join("; ")}`,
        exchange,
      );
    }
  };
  await whileStatusesHold(ctx, ids, async () => {
    const first = await listDeployments(ctx, { deployment_ids: ids.join(",") });
    await pause();
    const second = await listDeployments(ctx, { deployment_ids: ids.join(",") });
    compare(first.resources, second.resources, "the deployments, their status holding still", second.exchange);
    // a write of another resource is no write of these either (D-453): a provider create moves no deployment
    await createProvider(ctx);
    const third = await listDeployments(ctx, { deployment_ids: ids.join(",") });
    compare(
      second.resources,
      third.resources,
      "the deployments, their status holding still, after an OAuth provider create",
      third.exchange,
    );
  });
  const provider = made.find((m) => m.kind === "oauth_provider")!.record;
  const first = await listProviders(ctx);
  await pause();
  const second = await listProviders(ctx);
  const mine = (records: Json[]) => records.filter((r) => r.id === provider.id);
  compare(mine(first.records), mine(second.records), "the OAuth provider", second.exchange);
  const listed = mine(second.records)[0];
  for (const field of ["created_at", "updated_at"] as const)
    ensure(
      listed?.[field] === provider[field],
      `the OAuth provider is listed with ${field} ${String(listed?.[field])}, not the ${String(provider[field])} of its create answer, though nothing changes a provider`,
      second.exchange,
    );
}

const tags = ["laws", "time", "createDeployment", "createOAuthProvider", "listDeployments", "listOAuthProviders"];

export const timeLawChecks: Check[] = [
  {
    id: "LAW-007",
    level: "MUST",
    tags,
    statement:
      "created_at and updated_at of a created deployment and OAuth provider lie inside the wall-clock window of the create (give or take --clock-tolerance-ms, default 2 s), created_at <= updated_at in every record any answer of the run has shown, and no created_at or updated_at of one lies after that answer arrived",
    specRef:
      "interface-spec: Deployment and OAuth provider response records (created_at, updated_at: date-time, read-only); D-372 (the tolerance)",
    needs: ["write", "state"],
    run: timesInsideTheirWindow,
  },
  {
    id: "LAW-008",
    level: "SHOULD",
    tags,
    statement:
      "Every answer writes its timestamps in one form (one precision, one zone notation), and each list is ordered by the created_at it shows: deployments newest first, providers oldest first",
    specRef: "D-372 (one timestamp form), D-08 (ordering)",
    needs: ["write", "state"],
    run: onePrecisionAndShownOrder,
  },
  {
    id: "LAW-015",
    level: "SHOULD",
    tags,
    statement:
      "A read moves nothing, nor does a write of another resource: deployments read twice by id, 30 ms apart, then again after an OAuth provider create, while their status holds still, come back the same, updated_at included, and an OAuth provider is listed with its create answer's created_at and updated_at on every read",
    specRef: "D-453 (updated_at moves only with the create or a status transition, D-12), D-250",
    needs: ["write", "state"],
    run: readsMoveNothing,
  },
];
