/** FUZZ-009: every create body member sent with a JSON type its schema excludes is refused, never coerced (D-16, D-500). */
import fc from "fast-check";
import { type OperationId, operation, type SchemaObject } from "../../contract/index.js";
import { ensure, isObject } from "../check-kit/assert.js";
import { paths } from "../check-kit/helpers.js";
import { forbiddenFor, sendableIn } from "../model/body-source-rules.js";
import { completedDeploymentBodies, completedProviderBodies } from "../model/contract-requests.js";
import type { Source } from "../model/data.js";
import { fullResourceSpec } from "../model/full-resource-spec.js";
import { spreadSample, valueAt, type WrongTypeCase, withWrongType, wrongTypeCases } from "../model/wrong-types.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

type Json = Record<string, unknown>;

/** Cases sent per run unless --all-json-cases: enough to meet each kind, few enough to keep the run fast. */
const casesPerRun = 30;

/** Valid bodies drawn per operation, among which each case finds one holding its member. */
const basesPerOperation = 60;

/** One create operation: its path, its cases, the valid bodies they start from, and how a body gets a fresh name. */
interface Target {
  operationId: OperationId;
  path: string;
  cases: WrongTypeCase[];
  bases: Json[];
  named: (body: Json, n: number) => Json;
  kind: "oauth_provider" | "deployment";
}

/**
 * The bodies, then each whose source allows a resource spec with one holding every member (no completion adds its
 * members, POS-007 to POS-013 send it whole, D-134), so each of those members has a body that holds it.
 */
function withFullResourceSpecs(bodies: Json[]): Json[] {
  const full = bodies
    .filter((b) => isObject(b.source_config) && !forbiddenFor("source_config.resource_spec", b.source as Source))
    .map((b) => ({ ...b, source_config: { ...(b.source_config as Json), resource_spec: fullResourceSpec(true) } }));
  return [...bodies, ...full];
}

function targets(ctx: CheckContext): Target[] {
  const seed = ctx.config.seed;
  const schemaOf = (id: OperationId) => operation(id).requestBody?.schema as SchemaObject;
  return [
    {
      operationId: "createOAuthProvider",
      path: paths.providers,
      cases: wrongTypeCases(schemaOf("createOAuthProvider")),
      bases: fc
        .sample(completedProviderBodies(["S256", "plain"], ["microsoft", "salesforce", "slack"], "SHOULD"), {
          numRuns: basesPerOperation,
          seed,
        })
        .map((c) => c.body),
      named: (body, n) => ({ ...body, provider_id: `${ctx.prefix}wt-${n}` }),
      kind: "oauth_provider",
    },
    {
      operationId: "createDeployment",
      path: paths.deployments,
      // a field no source of the hosting allows is refused for that reason, so it judges no type (D-48)
      cases: wrongTypeCases(schemaOf("createDeployment")).filter((c) => sendableIn(ctx.config.hosting, c.path)),
      bases: withFullResourceSpecs(
        fc
          .sample(completedDeploymentBodies(ctx.config.hosting, "SHOULD"), { numRuns: basesPerOperation, seed })
          .map((c) => c.body),
      ),
      named: (body, n) => ({ ...body, name: `${ctx.prefix}wt${n}` }),
      kind: "deployment",
    },
  ];
}

/** One case and its body: the valid body it starts from, then the one sent (one member of an excluded type). */
interface Planned {
  target: Target;
  wrong: WrongTypeCase;
  body: Json;
}

/** Each case with the first valid body that holds its member (the body's own fields only: none a source forbids). */
function planned(ctx: CheckContext, n: () => number): { plans: Planned[]; unplaced: number } {
  const plans: Planned[] = [];
  let unplaced = 0;
  for (const target of targets(ctx)) {
    for (const wrong of target.cases) {
      const base = target.bases.find((b) => withWrongType(target.named(b, 0), wrong) !== undefined);
      if (base === undefined) unplaced += 1;
      else plans.push({ target, wrong, body: base });
    }
  }
  const shuffled = fc.sample(fc.shuffledSubarray(plans, { minLength: plans.length, maxLength: plans.length }), {
    numRuns: 1,
    seed: ctx.config.seed,
  })[0]!;
  const chosen = ctx.config.allJsonCases ? plans : spreadSample(shuffled, casesPerRun);
  // fresh names at send time (a provider_id is unique per organization, D-38), then the member's wrong value
  const sent = chosen.map((p) => ({ ...p, body: withWrongType(p.target.named(p.body, n()), p.wrong) as Json }));
  return { plans: sent, unplaced };
}

export const wrongTypeChecks: Check[] = [
  {
    id: "FUZZ-009",
    level: "SHOULD",
    tags: ["fuzz", "createDeployment", "createOAuthProvider", "validation"],
    statement:
      "Every member of a create body (OAuth provider, deployment), at any depth, sent with a JSON type its schema excludes (text for a boolean or number, a number, a boolean, null where not nullable, an array, an object) in an otherwise valid body is refused with a 4xx and creates nothing",
    specRef: "D-16 (422 when a request breaks the schema), D-500 (a wrong JSON type is refused, never coerced)",
    needs: ["write"],
    async run(ctx) {
      let counter = 0;
      const { plans, unplaced } = planned(ctx, () => {
        counter += 1;
        return counter;
      });
      const failures: { reason: string; exchange: Exchange }[] = [];
      for (const { target, wrong, body } of plans) {
        const ex = await ctx.send({ method: "POST", path: target.path, json: body, operation: target.operationId });
        const status = ex.response.status;
        if (status >= 200 && status < 300 && isObject(ex.json)) {
          const name = target.kind === "deployment" ? body.name : body.provider_id;
          ctx.created({ kind: target.kind, id: String(ex.json.id), name: String(name), key: "main" });
        }
        if (status >= 400 && status < 500) continue;
        const sent = `${target.operationId} ${wrong.path} as ${wrong.kind} ${JSON.stringify(wrong.value)}`;
        const back = status < 300 ? `, came back as ${JSON.stringify(valueAt(ex.json, wrong.keys)) ?? "absent"}` : "";
        failures.push({
          reason: `${sent}: answered ${status}${status < 300 ? " (coerced)" : ""}${back}`,
          exchange: ex,
        });
      }
      ctx.note(
        `${plans.length} wrong-type cases sent (seed ${ctx.config.seed}${ctx.config.allJsonCases ? ", all" : ""}); ${unplaced} had no generated body holding the member`,
      );
      ensure(
        failures.length === 0,
        `${failures.length} of ${plans.length} wrong-type members not refused: ${failures
          .slice(0, 5)
          .map((f) => f.reason)
          .join("; ")}`,
        failures[0]?.exchange,
      );
    },
  },
];
