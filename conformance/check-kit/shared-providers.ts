/**
 * OAuth provider creates that checks of different areas share across the run (D-245): one body carries the cases of
 * several checks, is sent once on first use, and each check judges its own fields of the answer. A refused body is
 * judged by none here: each check that needs its values then sends its own bodies, as it did alone, so a target that
 * refuses one decided value (plain, a vendor name) is judged on the others as before.
 */
import { answerProblems, operation, type SchemaObject } from "../../contract/index.js";
import { outOfProfile, providerBody } from "../model/data.js";
import type { CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";
import { ensure, isObject } from "./assert.js";
import { type Json, sendProviderCreate } from "./helpers.js";

const create = operation("createOAuthProvider");
const requestFields = (create.requestBody?.schema.properties ?? {}) as Record<string, SchemaObject>;

/** The branches of a field's schema: itself and those of its `allOf` / `anyOf` (D-130 puts constraints inside the non-null branch). */
export function branches(schema: SchemaObject): SchemaObject[] {
  const nested = [...(schema.allOf ?? []), ...(schema.anyOf ?? [])] as SchemaObject[];
  return [schema, ...nested.flatMap(branches)];
}

/** One case of a bound check: a field and a value to send. */
export interface Case {
  field: string;
  value: unknown;
}

/** Every allowed value of every enum field of the provider create body, from the contract. */
export const enumCases: Case[] = Object.entries(requestFields).flatMap(([field, schema]) =>
  branches(schema).flatMap((b) => (b.enum ?? []).map((value): Case => ({ field, value }))),
);

/** Every nullable field of the provider create body. */
export const nullableFields = Object.entries(requestFields)
  .filter(([, schema]) => branches(schema).some((b) => b.type === "null"))
  .map(([field]) => field);

/** A create body and the cases it carries. */
interface Round {
  body: Json;
  cases: Case[];
}

/** A round as sent: its answer, and the record when the target accepted it (else undefined). */
export interface SentRound extends Round {
  exchange: Exchange;
  record?: Json;
}

/** Cases of different fields put together in bodies made by `base`: round i sets each field's i-th case. */
export function rounds(base: () => Json, cases: readonly Case[]): Round[] {
  const byField = new Map<string, Case[]>();
  for (const c of cases) byField.set(c.field, [...(byField.get(c.field) ?? []), c]);
  const count = Math.max(0, ...[...byField.values()].map((list) => list.length));
  return Array.from({ length: count }, (_, i) => {
    const round = [...byField.values()].flatMap((list) => (list[i] ? [list[i]] : []));
    return {
      body: Object.fromEntries([...Object.entries(base()), ...round.map((c) => [c.field, c.value])]),
      cases: round,
    };
  });
}

/** Sends a round's body and records a provider it made; the answer is the caller's to judge. */
export async function sendRound(ctx: CheckContext, round: Round): Promise<SentRound> {
  const exchange = await sendProviderCreate(ctx, round.body);
  const accepted = exchange.response.status >= 200 && exchange.response.status < 300 && isObject(exchange.json);
  return { ...round, exchange, ...(accepted ? { record: exchange.json as Json } : {}) };
}

/**
 * The run's bodies of every enum value (BOUND-003, BOUND-004, POS-002's decided values, PROV-CREATE-016, SEM-007):
 * the i-th value of each enum field in the i-th body, and a body with code_challenge_method plain turns PKCE on as a
 * client would (uses_pkce true). Sent once per run, on first use.
 */
export function enumRounds(ctx: CheckContext): Promise<SentRound[]> {
  return ctx.fixture(
    "provider-enum-rounds",
    async () => {
      const sent: SentRound[] = [];
      for (const round of rounds(() => providerBody(ctx.name("enum")), enumCases)) {
        if (round.body.code_challenge_method === "plain") round.body.uses_pkce = true;
        sent.push(await sendRound(ctx, round));
      }
      return sent;
    },
    "run",
  );
}

/** The first of the run's enum rounds whose body `holds`, or undefined when none does. */
export async function enumRoundWhere(
  ctx: CheckContext,
  holds: (body: Json) => boolean,
): Promise<SentRound | undefined> {
  return (await enumRounds(ctx)).find((round) => holds(round.body));
}

/**
 * The run's provider with every nullable field explicit null and uses_pkce true (BOUND-005 judges its acceptance,
 * SEM-007 the defaults of code_challenge_method and token_endpoint_auth_method beside a uses_pkce sent). Sent once
 * per run, on first use.
 */
export function nullsProvider(ctx: CheckContext): Promise<SentRound> {
  return ctx.fixture(
    "provider-nulls",
    () =>
      sendRound(ctx, {
        body: {
          ...providerBody(ctx.name(`${outOfProfile}bnd`)),
          uses_pkce: true,
          ...Object.fromEntries(nullableFields.map((f) => [f, null])),
        },
        cases: nullableFields.map((field) => ({ field, value: null })),
      }),
    "run",
  );
}

/**
 * The accepted answer of a shared create judged by the schema as the runner judges the answers a check sends itself
 * (a MUST check by the interface level, a SHOULD one by the full contract): a check that judges a record the run
 * shares still fails on an answer that breaks the schema, whichever check sent it first. Call it after the check's
 * own judgments, which come first (D-244).
 */
export function sharedAnswerConforms(ctx: CheckContext, exchange: Exchange): void {
  const { status } = exchange.response;
  if (status < 200 || status >= 300) return;
  const level = ctx.level === "MUST" ? "interface" : "full";
  const problems = answerProblems(
    "createOAuthProvider",
    { status, contentType: exchange.response.headers["content-type"], body: exchange.json },
    { anySuccess: true, level },
  );
  ensure(
    problems.length === 0,
    `the ${status} answer of createOAuthProvider (a create the run shares, D-245) does not match the ${level === "interface" ? "interface-level (D-220) schema" : "contract schema"}: ${problems.join("; ")}`,
    exchange,
  );
}
