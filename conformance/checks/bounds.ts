/** Both sides of every bound of the provider create body, derived from the contract: lengths (D-31, D-38, D-58), enums and nullable fields. */
import { operation, type SchemaObject } from "../../contract/index.js";
import { ensure, expect2xx, expectStatus, isObject } from "../check-kit/assert.js";
import { createProvider, type Json, paths } from "../check-kit/helpers.js";
import {
  branches,
  type Case,
  enumCases,
  enumRounds,
  nullableFields,
  nullsProvider,
  rounds,
  type SentRound,
  sendRound,
  sharedAnswerConforms,
} from "../check-kit/shared-providers.js";
import { outOfProfile, providerBody } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

const tags = ["createOAuthProvider", "bounds"];
const create = operation("createOAuthProvider");
const requestFields = (create.requestBody?.schema.properties ?? {}) as Record<string, SchemaObject>;
const responseFields = new Set(Object.keys(create.responses[String(create.successStatus)]?.schema.properties ?? {}));

/** Enum fields whose allowed values the interface spec itself lists (its placeholders, e.g. `<vendor_1>`, do not count). */
const specListedEnums = new Set(["token_endpoint_auth_method"]);

/** Every string field with a `maxLength`, and that bound. */
const lengthBounds = Object.entries(requestFields).flatMap(([field, schema]) => {
  const max = branches(schema).find((b) => b.type === "string" && typeof b.maxLength === "number")?.maxLength;
  return max === undefined ? [] : [{ field, max, uri: branches(schema).some((b) => b.format === "uri") }];
});

/** A value of exactly `length` characters for a field: a valid https URL for URL fields, else the base value padded. */
function valueOfLength(base: string, length: number, uri: boolean): string {
  const start = uri ? "https://auth.example.com/" : base;
  return start.length >= length ? start.slice(0, length) : start + "x".repeat(length - start.length);
}

/** A fresh provider body with `field` set to `value` (provider_id stays unique per run). */
function bodyWith(ctx: CheckContext, { field, value }: Case): Json {
  return { ...providerBody(ctx.name(`${outOfProfile}bnd`)), [field]: value };
}

/** A fresh provider body whose `field` holds `length` characters. */
function bodyOfLength(ctx: CheckContext, bound: { field: string; uri: boolean }, length: number): Json {
  const body = providerBody(ctx.name(`${outOfProfile}bnd`));
  const base = typeof body[bound.field] === "string" ? (body[bound.field] as string) : ctx.name(`${outOfProfile}bnd`);
  return { ...body, [bound.field]: valueOfLength(base, length, bound.uri) };
}

/** Each returned field of `fields` came back as sent (absent: the field's default). */
function echoes(exchange: Exchange, record: Json, body: Json, fields: readonly string[], label: string): void {
  for (const field of fields) {
    if (!responseFields.has(field)) continue;
    const want = body[field];
    const fallback = (requestFields[field] as SchemaObject).default;
    const got = record[field];
    ensure(
      got === want || (got === undefined && want === fallback),
      `${label}: ${field} came back as ${JSON.stringify(got)?.slice(0, 80)}, not as sent`,
      exchange,
    );
  }
}

/** Creates with `body`, expects success, and that each returned field of the case comes back unchanged. */
async function acceptsAndEchoes(ctx: CheckContext, body: Json, field: string, label: string): Promise<void> {
  const { exchange, record } = await createProvider(ctx, body);
  echoes(exchange, record, body, [field], label);
}

/** A round judged: when accepted each returned field of its cases came back as sent, else each case is sent alone, which names the field the target refuses. */
async function judgeRound(ctx: CheckContext, round: SentRound, cases: readonly Case[]): Promise<void> {
  if (round.record) {
    const label = cases.map((c) => `${c.field} ${String(c.value).slice(0, 40)}`).join(", ");
    echoes(
      round.exchange,
      round.record,
      round.body,
      cases.map((c) => c.field),
      label,
    );
  } else
    for (const c of cases)
      await acceptsAndEchoes(ctx, bodyWith(ctx, c), c.field, `${c.field} ${String(c.value).slice(0, 40)}`);
}

/** Checks of the enum values: the spec-listed ones (MUST) or the others (SHOULD). */
function enumCheck(id: string, listed: boolean): Check {
  const cases = enumCases.filter((c) => specListedEnums.has(c.field) === listed);
  return {
    id,
    level: listed ? "MUST" : "SHOULD",
    tags: [...tags, "enums"],
    statement: `Each allowed value of ${[...new Set(cases.map((c) => c.field))].join(", ")} is accepted and comes back unchanged`,
    specRef: listed
      ? "interface-spec: OAuth provider creation request body, token_endpoint_auth_method allowed values"
      : "D-02 (code_challenge_method), interface-spec placeholders of provider_type",
    needs: ["write", "state"],
    async run(ctx) {
      // the run's enum bodies, shared with the other enum check and the checks of decided values and defaults (D-245)
      const fields = new Set(cases.map((c) => c.field));
      const judged: SentRound[] = [];
      for (const round of await enumRounds(ctx)) {
        const mine = round.cases.filter((c) => fields.has(c.field));
        if (mine.length === 0) continue;
        await judgeRound(ctx, round, mine);
        judged.push(round);
      }
      for (const round of judged) sharedAnswerConforms(ctx, round.exchange);
    },
  };
}

export const boundChecks: Check[] = [
  {
    id: "BOUND-001",
    level: "SHOULD",
    tags: [...tags, "lengths"],
    statement: "Each string field of the provider create body at its maxLength is accepted and comes back unchanged",
    specRef: "D-31, D-38, D-58 (field length bounds)",
    needs: ["write", "state"],
    async run(ctx) {
      const cases = lengthBounds.map((bound): Case => {
        const field = bodyOfLength(ctx, bound, bound.max)[bound.field];
        return { field: bound.field, value: field };
      });
      // the cases of different fields in one body (D-245)
      for (const round of rounds(() => providerBody(ctx.name("bnd")), cases))
        await judgeRound(ctx, await sendRound(ctx, round), round.cases);
    },
  },
  {
    id: "BOUND-002",
    level: "SHOULD",
    tags: [...tags, "lengths", "validation"],
    statement:
      "Each string field of the provider create body one character beyond its maxLength is refused with a 422 naming the field",
    specRef: "D-31 (beyond a bound: 422), D-16 (errors[].pointer)",
    needs: ["server"],
    async run(ctx) {
      for (const bound of lengthBounds) {
        const what = `create OAuth provider with ${bound.field} of ${bound.max + 1}`;
        const ex = await ctx.send({
          method: "POST",
          path: paths.providers,
          json: bodyOfLength(ctx, bound, bound.max + 1),
          operation: "createOAuthProvider",
        });
        if (ex.response.status < 300 && isObject(ex.json))
          ctx.created({
            kind: "oauth_provider",
            id: String(ex.json.id),
            name: String(ex.json.provider_id),
            key: "main",
          });
        expectStatus(ex, 422, what);
        const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
        ensure(
          errors.some((e) => isObject(e) && e.pointer === `/${bound.field}`),
          `${what}: the 422 does not name /${bound.field} in errors`,
          ex,
        );
      }
    },
  },
  enumCheck("BOUND-003", true),
  enumCheck("BOUND-004", false),
  {
    id: "BOUND-005",
    level: "MUST",
    tags: [...tags, "nullable"],
    statement: `Each nullable field of the provider create body (${nullableFields.join(", ")}) sent as explicit null is accepted`,
    specRef:
      "interface-spec: OAuth provider creation request body, client_secret string or null, provider_type enum or null",
    needs: ["write"],
    async run(ctx) {
      // every nullable field null in one create, the run's, which SEM-007 shares (D-245)
      const { exchange } = await nullsProvider(ctx);
      expect2xx(exchange, `create OAuth provider with ${nullableFields.join(", ")} null`);
      sharedAnswerConforms(ctx, exchange);
    },
  },
];
