/**
 * Negative property-based checks: invalid bodies and parameters generated from the contract's schemas with
 * fast-check, each must get a 4xx, never a 5xx, and leave the lists unchanged. Seeded and bounded.
 */
import fc from "fast-check";
import type { SchemaObject } from "../../contract/index.js";
import { ensure, isObject } from "../check-kit/assert.js";
import { managedReposRequest, paths, walkDeployments } from "../check-kit/helpers.js";
import { outOfProfile, plainSource, type Source } from "../model/data.js";
import { type Mutation, parameterSchema, schemaMutations, specMutations } from "../model/invalid-inputs.js";
import type { Check, CheckContext } from "../runner/check.js";
import { CheckFailure } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** Time limit of one property, so a slow target cannot stall the run. */
const timeLimitMs = 20_000;

/** A random valid OAuth provider body (the base every mutation starts from), named `<prefix><tag><n>`. */
function validProvider(ctx: CheckContext, tag: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(
      {
        n: fc.integer({ min: 0, max: 1_000_000 }),
        uses_pkce: fc.boolean(),
        code_challenge_method: fc.constantFrom("S256", "plain"),
        provider_type: fc.constantFrom("microsoft", "salesforce", "slack", null),
        token_endpoint_auth_method: fc.constantFrom("none", "client_secret_basic", "client_secret_post"),
        client_secret: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
      },
      { requiredKeys: ["n"] },
    )
    .map(({ n, ...optional }) => ({
      provider_id: `${ctx.prefix}${tag}${n}`,
      name: `Fuzz ${n}`,
      client_id: `client-${n}`,
      auth_url: "https://auth.example.com/authorize",
      token_url: "https://auth.example.com/token",
      ...optional,
    }));
}

/** A random valid deployment body for the hosting kind, named `<prefix><tag><n>`. */
function validDeployment(ctx: CheckContext, tag: string): fc.Arbitrary<Record<string, unknown>> {
  const source: Source = plainSource(ctx.config.hosting);
  return fc
    .record({
      n: fc.integer({ min: 0, max: 1_000_000 }),
      secrets: fc.array(
        fc.record({ name: fc.constantFrom("A", "TOKEN", "DB_URL"), value: fc.string({ maxLength: 10 }) }),
        { minLength: 1, maxLength: 2 },
      ),
      install_command: fc.option(fc.constantFrom("npm ci", "pip install ."), { nil: undefined }),
    })
    .map(({ n, secrets, install_command }) => ({
      name: `${ctx.prefix}${tag}${n}`,
      source,
      source_config: install_command ? { install_command } : {},
      source_revision_config:
        source === "external_container" ? { image_uri: "registry.example.com/fuzz/app:1.0.0" } : {},
      secrets,
    }));
}

interface Snapshot {
  take(): Promise<string>;
}

function deploymentSnapshot(ctx: CheckContext, tag: string): Snapshot {
  return {
    async take() {
      const walk = await walkDeployments(ctx, { name_contains: `${ctx.prefix}${tag}` }, 100, 50);
      const all = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { limit: 100 },
        operation: "listDeployments",
      });
      const first =
        isObject(all.json) && Array.isArray(all.json.resources)
          ? all.json.resources.map((r) => (r as { id: string }).id).join(",")
          : all.response.body;
      return `${walk.ids.sort().join(",")}|${first}`;
    },
  };
}

function providerSnapshot(ctx: CheckContext): Snapshot {
  return {
    async take() {
      const ex = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
      return Array.isArray(ex.json)
        ? ex.json
            .map((r) => (r as { id: string }).id)
            .sort()
            .join(",")
        : ex.response.body;
    },
  };
}

/**
 * Runs a property: every generated request must answer 4xx. Reports the seed, the number of runs,
 * the first counterexample and its exchange.
 */
async function property<T>(
  ctx: CheckContext,
  label: string,
  arbitrary: fc.Arbitrary<T>,
  send: (input: T) => Promise<Exchange>,
  describe: (input: T) => string,
  snapshot?: Snapshot,
): Promise<void> {
  const before = snapshot && !ctx.config.stateless ? await snapshot.take() : undefined;
  let failure: { reason: string; exchange: Exchange } | undefined;
  let runs = 0;
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (input) => {
      runs += 1;
      const ex = await send(input);
      const s = ex.response.status;
      if (s >= 400 && s < 500) return true;
      failure = {
        reason: `${label}: ${describe(input)} answered ${s}, expected a 4xx${s >= 500 ? " (a client input must never produce a 5xx)" : ""}`,
        exchange: ex,
      };
      return false;
    }),
    { seed: ctx.config.seed, numRuns: ctx.config.fuzzRuns, endOnFailure: true, interruptAfterTimeLimit: timeLimitMs },
  );
  ctx.note(`${label}: ${runs} generated inputs, seed ${ctx.config.seed}`);
  if (result.failed && failure)
    throw new CheckFailure(
      `${failure.reason} [fast-check seed ${ctx.config.seed}, run ${runs}; reproduce with --seed ${ctx.config.seed}]`,
      failure.exchange,
    );
  if (result.failed && result.errorInstance) throw result.errorInstance;
  if (before !== undefined && snapshot) {
    const after = await snapshot.take();
    ensure(before === after, `${label}: the list changed after ${runs} rejected requests (something was stored)`);
  }
}

function mutated(base: fc.Arbitrary<Record<string, unknown>>, mutations: fc.Arbitrary<Mutation>, max: number) {
  return fc.tuple(base, fc.array(mutations, { minLength: 1, maxLength: max })).map(([body, ms]) => {
    const copy = structuredClone(body);
    for (const m of ms) m.apply(copy);
    return { body: copy, labels: ms.map((m) => m.label) };
  });
}

/** The schema of a list parameter, from the contract. */
const listParameter = (name: string) => parameterSchema("listDeployments", name);
const limit = listParameter("limit");
const offset = listParameter("offset");
const deploymentTypes = listParameter("deployment_type").enum as string[];
const statuses = (listParameter("status").items as SchemaObject).enum as string[];
const nameContainsMax = listParameter("name_contains").maxLength!;
const imageVersionMax = listParameter("image_version").maxLength!;
const deploymentIdsMax = listParameter("deployment_ids").maxItems!;

/** Invalid query values per list parameter, from its schema. */
const mustQueries = fc.oneof(
  fc.integer({ min: limit.minimum! - 1000, max: limit.minimum! - 1 }).map((v) => ({ limit: String(v) })),
  fc.integer({ min: limit.maximum! + 1, max: 1_000_000 }).map((v) => ({ limit: String(v) })),
  fc.integer({ min: -1_000_000, max: offset.minimum! - 1 }).map((v) => ({ offset: String(v) })),
  fc
    .string({ minLength: 1, maxLength: 10 })
    .filter((v) => !deploymentTypes.includes(v))
    .map((v) => ({ deployment_type: v })),
);

const shouldQueries = fc.oneof(
  fc.constantFrom("abc", "1.5", "1e3x", "", " ", "0x10", "true").map((v) => ({ limit: v })),
  fc.constantFrom("abc", "-0.5", "1.5", "NaN", "null").map((v) => ({ offset: v })),
  fc.constantFrom("maybe", "2", "yes!", "TRUE1", "null").map((v) => ({ remote_reconciled: v })),
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((v) => !statuses.includes(v) && !v.includes(","))
    .map((v) => ({ status: `READY,${v}` })),
  fc.constantFrom("not-a-uuid", "00000000-0000-4000-8000-00000000000", "zz", "1,2").map((v) => ({ deployment_ids: v })),
  fc.constantFrom("not-a-uuid", "x,y", "00000000-0000-4000-8000-00000000000g").map((v) => ({ tag_value_ids: v })),
  fc.integer({ min: nameContainsMax + 1, max: nameContainsMax + 345 }).map((n) => ({ name_contains: "a".repeat(n) })),
  fc.integer({ min: imageVersionMax + 1, max: imageVersionMax + 345 }).map((n) => ({ image_version: "1".repeat(n) })),
  fc.integer({ min: deploymentIdsMax + 1, max: deploymentIdsMax + 30 }).map((n) => ({
    deployment_ids: Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`).join(
      ",",
    ),
  })),
);

const queryText = (q: Record<string, string>) => new URLSearchParams(q).toString().slice(0, 120);

/** The two levels of generated bodies: what the interface spec states (MUST) and anything of the schema (SHOULD). */
type BodyLevel = "MUST" | "SHOULD";

/** A create operation whose bodies FUZZ-001 to FUZZ-004 generate: its valid base body, path, list to watch, and its check per level. */
interface FuzzedCreate {
  operation: "createOAuthProvider" | "createDeployment";
  label: string;
  path: string;
  valid: (ctx: CheckContext, tag: string) => fc.Arbitrary<Record<string, unknown>>;
  snapshot: (ctx: CheckContext, tag: string) => Snapshot;
  /** The enum fields the interface spec states (the MUST level mutates only those). */
  specEnums: string[];
  checks: Record<BodyLevel, Pick<Check, "id" | "statement" | "specRef">>;
}

/** What a SHOULD body check cites: any schema break is a 422, never a 5xx. */
const schemaBreakRef = "D-16 (422 when a request breaks the schema; 5xx never for client input)";

const fuzzedCreates: FuzzedCreate[] = [
  {
    operation: "createOAuthProvider",
    label: "create OAuth provider",
    path: paths.providers,
    valid: validProvider,
    snapshot: providerSnapshot,
    specEnums: ["provider_type", "token_endpoint_auth_method"],
    checks: {
      MUST: {
        id: "FUZZ-001",
        statement:
          "Provider bodies missing a required field or with an enum value outside the enum (generated) all get a 4xx and store nothing",
        specRef: "interface-spec: 1. Create an OAuth provider (required fields); Errors (constraints)",
      },
      SHOULD: {
        id: "FUZZ-002",
        statement:
          "Provider bodies breaking the schema anywhere (wrong types, lengths, formats, enums) all get a 4xx, never a 5xx, and store nothing",
        specRef: schemaBreakRef,
      },
    },
  },
  {
    operation: "createDeployment",
    label: "create deployment",
    path: paths.deployments,
    valid: validDeployment,
    snapshot: deploymentSnapshot,
    specEnums: ["source"],
    checks: {
      MUST: {
        id: "FUZZ-003",
        statement:
          "Deployment bodies missing a required field or with source outside its enum (generated) all get a 4xx and store nothing",
        specRef: "interface-spec: 6. Create a deployment (required fields, source enum); Errors (constraints)",
      },
      SHOULD: {
        id: "FUZZ-004",
        statement:
          "Deployment bodies breaking the schema anywhere (wrong types, lengths, patterns, uuids, ranges) all get a 4xx, never a 5xx, and store nothing",
        specRef: schemaBreakRef,
      },
    },
  },
];

/** The mutations of each level and how many a body gets at most: a required field or stated enum (two), anything of the schema (three). */
const bodyMutations: Record<
  BodyLevel,
  { mutations: (target: FuzzedCreate) => fc.Arbitrary<Mutation>; max: number; tag: string }
> = {
  MUST: { mutations: (target) => specMutations(target.operation, target.specEnums), max: 2, tag: "fz-" },
  // Beyond the profile's bounds: a target without them stores these bodies, under names of their own (D-221).
  SHOULD: { mutations: (target) => schemaMutations(target.operation), max: 3, tag: `${outOfProfile}fz-` },
};

/** The one generated-body check, for one create operation at one level. */
function bodyCheck(target: FuzzedCreate, level: BodyLevel): Check {
  return {
    ...target.checks[level],
    level,
    tags: ["fuzz", target.operation, "validation"],
    needs: [],
    async run(ctx) {
      const { mutations, max, tag } = bodyMutations[level];
      await property(
        ctx,
        target.label,
        mutated(target.valid(ctx, tag), mutations(target), max),
        ({ body }) => ctx.send({ method: "POST", path: target.path, json: body }),
        ({ labels }) => labels.join(", "),
        target.snapshot(ctx, tag),
      );
    },
  };
}

const bodyLevels: BodyLevel[] = ["MUST", "SHOULD"];

export const fuzzChecks: Check[] = [
  // FUZZ-001 to FUZZ-004: {provider, deployment} × {MUST, SHOULD}.
  ...fuzzedCreates.flatMap((target) => bodyLevels.map((level) => bodyCheck(target, level))),
  {
    id: "FUZZ-005",
    level: "MUST",
    tags: ["fuzz", "listDeployments", "validation"],
    statement:
      "List parameters out of range (limit outside 1..100, negative offset) or outside the deployment_type enum (generated) all get a 4xx",
    specRef: "interface-spec: 5. List deployments (limit 1..100, offset >= 0, deployment_type enum); Limits",
    needs: [],
    async run(ctx) {
      await property(
        ctx,
        "list deployments",
        mustQueries,
        (q) => ctx.send({ method: "GET", path: paths.deployments, query: q }),
        queryText,
      );
    },
  },
  {
    id: "FUZZ-006",
    level: "SHOULD",
    tags: ["fuzz", "listDeployments", "validation"],
    statement:
      "Malformed list parameters (non-integers, bad booleans, unknown statuses, bad UUIDs, too long, too many) all get a 4xx, never a 5xx",
    specRef: "D-16, D-39 to D-45",
    needs: ["server"],
    async run(ctx) {
      await property(
        ctx,
        "list deployments",
        shouldQueries,
        (q) => ctx.send({ method: "GET", path: paths.deployments, query: q }),
        queryText,
      );
    },
  },
  {
    id: "FUZZ-007",
    level: "SHOULD",
    tags: ["fuzz", "listCodehostRepositories", "listManagedCodehostRepositories", "validation"],
    statement: "Malformed integration ids in the repository paths all get a 4xx, never a 5xx",
    specRef: "D-16; interface-spec: 3. integration_id (uuid)",
    needs: [],
    async run(ctx) {
      const ids = fc.oneof(
        fc
          .string({ unit: fc.constantFrom(..."abcdefxyz0123456789-_.~"), minLength: 1, maxLength: 40 })
          .filter(
            (s) =>
              !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) && s !== "." && s !== "..",
          ),
        fc.uuid().map((u) => `${u}0`),
        fc.uuid().map((u) => u.replace(/-/g, "")),
      );
      await property(
        ctx,
        "list repositories",
        fc.tuple(ids, fc.boolean()),
        ([id, managed]) =>
          ctx.send(
            managed
              ? { ...managedReposRequest(ctx, encodeURIComponent(id)), operation: undefined }
              : { method: "GET", path: paths.repos(encodeURIComponent(id)) },
          ),
        ([id, managed]) => `${managed ? "managed " : ""}integration ${JSON.stringify(id)}`,
      );
    },
  },
  {
    id: "FUZZ-008",
    level: "SHOULD",
    tags: ["fuzz", "createDeployment", "createOAuthProvider", "validation"],
    statement: "Arbitrary JSON values as create bodies all get a 4xx, never a 5xx, and store nothing",
    specRef: "D-16 (5xx never for client input)",
    needs: [],
    async run(ctx) {
      const arb = fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.boolean());
      await property(
        ctx,
        "create with arbitrary JSON",
        arb,
        ([value, provider]) =>
          ctx.send({
            method: "POST",
            path: provider ? paths.providers : paths.deployments,
            raw: JSON.stringify(value) ?? "null",
            headers: { "Content-Type": "application/json" },
          }),
        ([value, provider]) =>
          `POST ${provider ? paths.providers : paths.deployments} ${JSON.stringify(value).slice(0, 80)}`,
        deploymentSnapshot(ctx, "fz-"),
      );
    },
  },
];
