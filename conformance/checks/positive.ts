/**
 * Positive generated checks: valid bodies and queries generated from the contract's schemas and the per-source table
 * (D-48), completed with every field the contract declares that no generator writes (D-490), must be accepted and
 * come back as sent, with the stated defaults for what was left out.
 */
import type fc from "fast-check";
import { ensure, expect2xx, jsonArray, jsonObject } from "../check-kit/assert.js";
import {
  differences,
  firstRepository,
  listDeployments,
  listProviders,
  paths,
  providerAsStated,
} from "../check-kit/helpers.js";
import { notKept } from "../check-kit/kept-json.js";
import { sameJson } from "../check-kit/same-json.js";
import { enumRoundWhere, sharedAnswerConforms } from "../check-kit/shared-providers.js";
import { otherFilters, statedFilters } from "../model/arbitraries.js";
import type { Completed } from "../model/contract-completion.js";
import { completedDeploymentBodies, completedProviderBodies, completedQueries } from "../model/contract-requests.js";
import {
  deploymentBody,
  plainSource,
  providerBody,
  type RepositoryRecord,
  type Source,
  sourcesFor,
} from "../model/data.js";
import { fullResourceSpec, type ValueSet, wideInteger } from "../model/full-resource-spec.js";
import { type Check, type CheckContext, CheckSkip, type Level } from "../runner/check.js";
import { isRefusal, judgeEach, noVerdictPrefix } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { holdsFor } from "./properties-run.js";

type Json = Record<string, unknown>;

const tags = ["positive", "generated"];

/** Property runs per check: a tenth of --fuzz-runs, at least 5, each a real create. */
const runsOf = (ctx: CheckContext) => Math.max(5, Math.round(ctx.config.fuzzRuns / 10));

/** Property runs of a provider check: a thirtieth of --fuzz-runs, at least 3, as a target may cap providers per organization (D-245). */
const providerRunsOf = (ctx: CheckContext) => Math.max(3, Math.round(ctx.config.fuzzRuns / 30));

/** POS-* properties run as the PROP-* ones do, with 30 s each: a create and a read per input. */
function holds<T>(
  ctx: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  runs = runsOf(ctx),
) {
  return holdsFor(ctx, arbitrary, predicate, runs, 30_000);
}

/** The body as it must come back: secret values masked are judged elsewhere (D-55), names must stay. */
function expectedEcho(body: Json): Json {
  const { secrets, ...rest } = body;
  return rest;
}

let counter = 0;

/**
 * Generated deployment bodies (the per-source table of D-48) created and read back. The interface spec does not say
 * which fields each source requires, so at MUST (`judgeAcceptance` false) a refused body is no verdict and only what
 * an accepted one comes back as is judged; at SHOULD every generated body must be accepted.
 */
async function echoDeployments(ctx: CheckContext, judgeAcceptance: boolean): Promise<void> {
  let refused = 0;
  let tried = 0;
  const added = new Set<string>();
  const level = judgeAcceptance ? "SHOULD" : "MUST";
  await holds(ctx, completedDeploymentBodies(ctx.config.hosting, level), async ({ body: generated, added: fields }) => {
    tried += 1;
    for (const field of fields) added.add(field);
    counter += 1;
    const body: Json = { ...generated, name: `${ctx.prefix}pos${counter}` };
    const created = await ctx.send({
      method: "POST",
      path: paths.deployments,
      json: body,
      operation: "createDeployment",
    });
    if (!judgeAcceptance && isRefusal(created)) {
      refused += 1;
      return;
    }
    expect2xx(created, `create a generated ${String(body.source)} deployment`);
    const answer = jsonObject(created, "create deployment");
    ctx.created({ kind: "deployment", id: String(answer.id), name: String(body.name), key: "main" });
    const want = expectedEcho(body);
    const sentNames = ((body.secrets as Json[]) ?? []).map((s) => s.name);
    const names = (record: Json) =>
      (Array.isArray(record.secrets) ? (record.secrets as Json[]) : []).map((s) => s.name);
    const diff = differences(answer, want);
    ensure(diff.length === 0, `the create answer differs from the body sent: ${diff.join("; ")}`, created);
    ensure(
      JSON.stringify(names(answer)) === JSON.stringify(sentNames),
      `secrets came back named ${JSON.stringify(names(answer))}, sent ${JSON.stringify(sentNames)}`,
      created,
    );
    const listed = await ctx.send({
      method: "GET",
      path: paths.deployments,
      query: { deployment_ids: String(answer.id) },
      operation: "listDeployments",
    });
    expect2xx(listed, "list the generated deployment by id");
    const record = (jsonObject(listed, "list deployments").resources as Json[])[0];
    ensure(record !== undefined, "the generated deployment is not listed by its id", listed);
    const listDiff = differences(record, want);
    ensure(listDiff.length === 0, `the listed record differs from the body sent: ${listDiff.join("; ")}`, listed);
    ensure(
      JSON.stringify(names(record)) === JSON.stringify(sentNames),
      `listed secrets are named ${JSON.stringify(names(record))}, sent ${JSON.stringify(sentNames)}`,
      listed,
    );
  });
  noteAdded(ctx, added);
  if (refused > 0) ctx.note(`${refused} of ${tried} generated bodies refused with a 4xx (judged by POS-004 at SHOULD)`);
  if (refused === tried)
    ctx.skip(`${noVerdictPrefix}: every generated body was refused with a 4xx; POS-004 judges acceptance at SHOULD`);
}

/** Names the members the contract added to the generated requests (D-490), whose round trip the check judged. */
function noteAdded(ctx: CheckContext, added: ReadonlySet<string>): void {
  if (added.size > 0)
    ctx.note(`sent from the contract's schema too (no generator writes them): ${[...added].join(", ")}`);
}

/** Where a record's secrets are not named as sent, in order (none to judge when `names` is unset). */
function namedAsSent(record: Json, names: unknown[] | undefined): string[] {
  if (names === undefined) return [];
  const got = (Array.isArray(record.secrets) ? (record.secrets as Json[]) : []).map((s) => s.name);
  return sameJson(got, names) ? [] : [`secrets: named ${JSON.stringify(got)}, sent ${JSON.stringify(names)}`];
}

/** A create judged by what comes back: the record created, its refusal's meaning, and what it must hold. */
interface AsSent {
  kind: "provider" | "deployment";
  body: Json;
  /** What the create answer and the listed record must each hold (compared by `differences`). */
  want: Json;
  what: string;
  /** What a 4xx refusal of the body means: no verdict (skipped), a legal answer (noted), or when unset a failure. */
  refused?: { as: "no-verdict" | "legal"; why: string };
  /** How a record read back is compared with `want`: `differences` unless the content may gain members (D-457). */
  compare?: (record: Json, want: Json) => string[];
  /** The names of the secrets sent, each record's secrets to be named so in order (their values are masked, D-55). */
  secretNames?: unknown[];
}

/** Creates a provider or deployment and reads it back (a deployment by id, a provider in the list): both hold `want`. */
async function createdAsSent(
  ctx: CheckContext,
  { kind, body, want, what, refused, compare = differences, secretNames }: AsSent,
): Promise<void> {
  const provider = kind === "provider";
  const created = await ctx.send({
    method: "POST",
    path: provider ? paths.providers : paths.deployments,
    json: body,
    operation: provider ? "createOAuthProvider" : "createDeployment",
  });
  if (refused && isRefusal(created)) {
    const reason = `the target refused ${what} (${created.response.status}): ${refused.why}`;
    if (refused.as === "legal") return ctx.note(reason);
    ctx.skip(`${noVerdictPrefix}: ${reason}`);
  }
  expect2xx(created, what);
  const answer = jsonObject(created, what);
  ctx.created({
    kind: provider ? "oauth_provider" : "deployment",
    id: String(answer.id),
    name: String(provider ? body.provider_id : body.name),
    key: "main",
  });
  await readBackAsSent(ctx, created, answer, { kind, want, what, compare, secretNames });
}

/** A create answered `answer` and its record read back (a deployment by id, a provider in the list): both hold `want`. */
async function readBackAsSent(
  ctx: CheckContext,
  created: Exchange,
  answer: Json,
  { kind, want, what, compare = differences, secretNames }: Omit<AsSent, "body" | "refused">,
): Promise<void> {
  const provider = kind === "provider";
  const diff = [...compare(answer, want), ...namedAsSent(answer, secretNames)];
  ensure(diff.length === 0, `${what}: the answer differs from the body sent: ${diff.slice(0, 5).join("; ")}`, created);
  const listed = provider
    ? await listProviders(ctx).then(({ exchange, records }) => ({
        exchange,
        record: records.find((r) => r.id === answer.id),
      }))
    : await listDeployments(ctx, { deployment_ids: String(answer.id) }).then(({ exchange, resources }) => ({
        exchange,
        record: resources[0],
      }));
  ensure(listed.record !== undefined, `${what}: the record is not listed`, listed.exchange);
  const listDiff = [...compare(listed.record, want), ...namedAsSent(listed.record, secretNames)];
  ensure(
    listDiff.length === 0,
    `${what}: the listed record differs from the body sent: ${listDiff.slice(0, 5).join("; ")}`,
    listed.exchange,
  );
}

/** Why each value set's refusal is what it is (POS-007, POS-009, POS-010). */
const refusalOf: Record<ValueSet, AsSent["refused"]> = {
  middle: { as: "no-verdict", why: "which fields a source takes is D-48's; POS-008 judges it" },
  zero: { as: "no-verdict", why: "the interface spec shows no minimum; D-65's 0 is the reference server's" },
  wide: { as: "legal", why: `a bound below ${wideInteger}, which the interface leaves open` },
};

/**
 * How a full resource spec is judged: `named` sends only the fields the interface spec names (MUST, a refusal read
 * by `refusalOf`); `free-form-kept` fills the free-form objects too, may be refused, and an accepted one keeps every
 * member sent (MUST, D-457); `free-form-as-sent` must be accepted and come back exactly as sent (SHOULD, D-01).
 */
type SpecJudgement = "named" | "free-form-kept" | "free-form-as-sent";

/** A self-hosted external_container deployment whose resource spec holds every field the contract lists, read back. */
async function echoFullResourceSpec(
  ctx: CheckContext,
  judgement: SpecJudgement,
  values: ValueSet = "middle",
): Promise<void> {
  const freeForm = judgement !== "named";
  const stem = { named: `fullspec${values}`, "free-form-kept": "fullspeckept", "free-form-as-sent": "fullspecff" };
  const body = deploymentBody(ctx.name(stem[judgement]), "external_container");
  const config = { ...(body.source_config as Json), resource_spec: fullResourceSpec(freeForm, values) };
  body.source_config = config;
  const refused =
    judgement === "named"
      ? refusalOf[values]
      : judgement === "free-form-kept"
        ? ({
            as: "no-verdict",
            why: "the inner fields of the free-form objects are not shown (interface spec, gap 1)",
          } as const)
        : undefined;
  await createdAsSent(ctx, {
    kind: "deployment",
    body,
    want: { source_config: config },
    what: `create a deployment with every resource spec field (${values} values${freeForm ? ", free-form objects filled" : ""})`,
    ...(refused ? { refused } : {}),
    ...(judgement === "free-form-kept" ? { compare: notKept } : {}),
  });
}

/** Provider URLs a URL normalizer would rewrite (case, default port, dot segments, empty path, %-encoded unreserved letters). */
const providerSpellings = [
  { auth_url: "HTTPS://Auth.Example.COM:443/a/../oauth/authorize", token_url: "https://auth.example.com" },
  {
    auth_url: "https://auth.example.com/o%61uth/authorize?prompt=consent",
    token_url: "https://auth.example.com/oauth/t%7eken",
  },
];

/** Provider values only a decision allows (D-02, D-57): each created once at MUST, a refusal no verdict (where the run's enum body with both was refused). */
const decidedProviderValues: Json[] = [{ uses_pkce: true, code_challenge_method: "plain" }, { provider_type: "slack" }];

/** Deployment fields a normalizer would rewrite, per source: a URL as above, a short image name with a tag in mixed case (a tag is case-sensitive), a ./ path. */
const deploymentSpellings: Partial<Record<Source, { config?: Json; revision?: Json }>> = {
  external_container: {
    config: { custom_url: "HTTPS://App.Example.COM:443/a/../" },
    revision: { image_uri: "nginx:1.27-Alpine" },
  },
  internal_container: { revision: { image_uri: "acme/agent:1.0.0-RC1" } },
  internal_source: {
    revision: { graph_config_path: "./agents/graph.json", source_tarball_path: "./uploads//Agent.tar.gz" },
  },
  codehost: { revision: { graph_config_path: "./Agents//graph.json" } },
};

/** The repository a codehost body is built from (rule 4), or none when the run's integration lists none to read. */
async function repositoryFor(ctx: CheckContext, source: Source): Promise<RepositoryRecord | undefined> {
  if (source !== "codehost") return undefined;
  return firstRepository(ctx).catch((error: unknown) => {
    if (error instanceof CheckSkip) return undefined;
    throw error;
  });
}

/**
 * POS-011: strings that a URL, image or path normalizer would rewrite, each created and read back by id: each comes
 * back byte for byte as sent. Each body is judged alone; a refused one is no verdict (D-58, D-48 and D-451 are the
 * reference server's rules for them, not the interface spec's).
 */
async function spellingsKept(ctx: CheckContext): Promise<void> {
  const providers = providerSpellings.map((urls, i) => ({
    kind: "provider" as const,
    body: { ...providerBody(ctx.name(`spelled${i}`)), ...urls } as Json,
    want: urls,
    what: `create provider with auth_url ${urls.auth_url} and token_url ${urls.token_url}`,
  }));
  const deployments = [];
  for (const source of sourcesFor[ctx.config.hosting]) {
    const spelled = deploymentSpellings[source];
    const repository = await repositoryFor(ctx, source);
    if (!spelled || (source === "codehost" && !repository)) continue;
    const body = deploymentBody(ctx.name(`spelled${source.length}`), source, repository);
    body.source_config = { ...(body.source_config as Json), ...spelled.config };
    body.source_revision_config = { ...(body.source_revision_config as Json), ...spelled.revision };
    const what = `create ${source} deployment with ${JSON.stringify({ ...spelled.config, ...spelled.revision })}`;
    const want = { source_config: body.source_config, source_revision_config: body.source_revision_config } as Json;
    deployments.push({ kind: "deployment" as const, body, want, what });
  }
  const refused = { as: "no-verdict" as const, why: "D-58, D-48 and D-451 are the reference server's rules for them" };
  await judgeEach(ctx, [...providers, ...deployments], (item) => createdAsSent(ctx, { ...item, refused }));
}

/** Secrets in no sorted order (by bytes or letters): a store keyed by name gives them back sorted. */
const unsortedSecrets: Json[] = [
  { name: "ZETA_KEY", value: "z" },
  { name: "alpha_key", value: "a" },
  { name: "Mid_Key", value: "m" },
];

/** Arrays a store might sort or deduplicate, per hosting kind: items in no sorted order, then exact repeats. */
interface ArrayShape {
  what: string;
  secrets: Json[];
  /** Self-hosted only (the arrays of an external_container deployment): its resource spec and secret references. */
  resourceSpec?: Json;
  secretReferences?: Json[];
}

const cloudArrayShapes: ArrayShape[] = [{ what: "secrets in no sorted order", secrets: unsortedSecrets }];

const selfHostedArrayShapes: ArrayShape[] = [
  {
    what: "items in no sorted order",
    secrets: unsortedSecrets,
    resourceSpec: {
      image_pull_secrets: [{ name: "zeta" }, { name: "Alpha" }, { name: "mid" }],
      volume_mounts: [
        { name: "zeta", mountPath: "/z", readOnly: false },
        { name: "Alpha", mountPath: "/a", readOnly: true },
        { name: "mid", mountPath: "/m" },
      ],
      sidecars: [
        {
          name: "side",
          image: "busybox:1.36",
          args: ["--zeta", "--alpha", "--mid"],
          env: [
            { name: "ZETA", value: "z" },
            { name: "alpha", value: "a" },
            { name: "Mid", value: "m" },
          ],
        },
      ],
    },
    secretReferences: [
      { name: "Zeta", secret_name: "s", secret_key: "k" },
      { name: "mid", secret_name: "s", secret_key: "k" },
      { name: "Alpha", secret_name: "s", secret_key: "k" },
    ],
  },
  {
    // secrets are not repeated: a repeated name is a refusal (D-116) that would leave the other arrays unjudged
    what: "an item repeated exactly",
    secrets: [],
    resourceSpec: {
      image_pull_secrets: [{ name: "dup" }, { name: "dup" }, { name: "Alpha" }],
      volume_mounts: [
        { name: "dup", mountPath: "/d" },
        { name: "dup", mountPath: "/d" },
      ],
    },
    secretReferences: [
      { name: "DUP", secret_name: "s", secret_key: "k" },
      { name: "DUP", secret_name: "s", secret_key: "k" },
    ],
  },
];

/**
 * POS-012: a deployment's arrays (its secrets by name; self-hosted also secret_references, image_pull_secrets,
 * volume_mounts, a sidecar's env and args) come back with every item in the order sent, repeats kept, a readOnly
 * false kept. Each shape is judged alone; a refused body is no verdict (whether a repeat is allowed, and which fields
 * a source takes, are decisions).
 */
async function arraysKept(ctx: CheckContext): Promise<void> {
  const selfHosted = ctx.config.hosting === "self_hosted";
  const shapes = selfHosted ? selfHostedArrayShapes : cloudArrayShapes;
  await judgeEach(ctx, shapes, ({ what, secrets, resourceSpec, secretReferences }) => {
    const body = deploymentBody(ctx.name("arrays"), plainSource(ctx.config.hosting));
    body.secrets = secrets;
    const want: Json = {};
    if (resourceSpec) {
      body.source_config = { ...(body.source_config as Json), resource_spec: resourceSpec };
      want.source_config = { resource_spec: resourceSpec };
    }
    if (secretReferences) want.secret_references = body.secret_references = secretReferences;
    return createdAsSent(ctx, {
      kind: "deployment",
      body,
      want,
      secretNames: secrets.map((secret) => secret.name),
      what: `create a deployment whose arrays hold ${what}`,
      refused: { as: "no-verdict", why: "whether a repeat is allowed is a decision" },
    });
  });
}

/** Generated OAuth provider bodies created and read back: every field sent but client_secret, and each default. */
async function echoProviders(
  ctx: CheckContext,
  methods: readonly string[],
  vendors: readonly string[],
  level: Level,
): Promise<void> {
  const defaults: Json = {
    uses_pkce: false,
    code_challenge_method: "S256",
    token_endpoint_auth_method: "client_secret_post",
  };
  const added = new Set<string>();
  let refused = 0;
  await holds(
    ctx,
    completedProviderBodies(methods, vendors, level),
    async ({ body: generated, added: fields }: Completed) => {
      counter += 1;
      for (const field of fields) added.add(field);
      // a fresh id on every run, shrinking included: a provider_id is unique per organization (D-38)
      const body: Json = { ...generated, provider_id: `${ctx.prefix}pos-${counter}` };
      const created = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: body,
        operation: "createOAuthProvider",
      });
      // at MUST a field the contract added may hold a value only the profile allows: its refusal is no verdict
      if (level === "MUST" && fields.length > 0 && isRefusal(created)) {
        refused += 1;
        return;
      }
      expect2xx(created, "create a generated OAuth provider");
      const answer = jsonObject(created, "create OAuth provider");
      ctx.created({ kind: "oauth_provider", id: String(answer.id), name: String(body.provider_id), key: "main" });
      const { client_secret, ...sent } = body;
      const want = { ...defaults, ...sent };
      // optional response fields left out read as their default or null (D-233)
      const diff = differences(providerAsStated(answer), want);
      ensure(diff.length === 0, `the create answer differs: ${diff.join("; ")}`, created);
      const listed = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
      expect2xx(listed, "list OAuth providers");
      const record = (jsonArray(listed, "list OAuth providers") as Json[]).find((p) => p.id === answer.id);
      ensure(record !== undefined, `the generated provider ${String(body.provider_id)} is not listed`, listed);
      const listDiff = differences(providerAsStated(record), want);
      ensure(listDiff.length === 0, `the listed provider differs: ${listDiff.join("; ")}`, listed);
    },
    providerRunsOf(ctx),
  );
  noteAdded(ctx, added);
  if (refused > 0) ctx.note(`${refused} bodies with fields the contract added refused with a 4xx: no verdict`);
}

/** Generated list queries, their other filters drawn from `filters` and completed from the contract, each accepted with a 2xx. */
async function listQueriesAccepted(ctx: CheckContext, filters: fc.Arbitrary<Json>, level: Level): Promise<void> {
  const added = new Set<string>();
  let refused = 0;
  await holds(ctx, completedQueries(filters, level), async ({ body: chosen, added: fields }) => {
    for (const field of fields) added.add(`query.${field}`);
    const query: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(chosen))
      if (v !== undefined) query[k] = Array.isArray(v) ? v.join(",") : (v as string | number | boolean);
    const ex = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
    // at MUST a parameter the contract added may hold a value only the profile allows: its refusal is no verdict
    if (level === "MUST" && fields.length > 0 && isRefusal(ex)) {
      refused += 1;
      return;
    }
    expect2xx(ex, `list deployments with ${JSON.stringify(query)}`);
  });
  noteAdded(ctx, added);
  if (refused > 0) ctx.note(`${refused} queries with parameters the contract added refused with a 4xx: no verdict`);
}

export const positiveChecks: Check[] = [
  {
    id: "POS-001",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments"],
    statement:
      "Generated deployment bodies (every source of the hosting kind, random optional fields, and every field the interface spec names that the source allows and no generator writes, drawn from the contract's schema) that are accepted come back with every field sent unchanged, in the create answer and in the list",
    specRef:
      "interface-spec: 6. Create deployment (request fields; the response is the deployment record); D-490, D-491",
    needs: ["write", "state"],
    async run(ctx) {
      await echoDeployments(ctx, false);
    },
  },
  {
    id: "POS-002",
    level: "MUST",
    tags: [...tags, "createOAuthProvider", "listOAuthProviders"],
    statement:
      "Generated valid OAuth provider bodies (code_challenge_method S256 or left out, provider_type null or left out; a field the interface spec names that no generator writes drawn from the contract's schema, a refusal of such a body no verdict) are accepted; every field sent but client_secret comes back unchanged and every omitted default is stored, in the create answer and in the list; a provider with code_challenge_method plain, and one with a vendor name as provider_type, may be refused, but one accepted comes back as sent",
    specRef:
      "interface-spec: 1. Create OAuth provider (defaults uses_pkce false, code_challenge_method S256, token_endpoint_auth_method client_secret_post; the response is the record created); D-490, D-491",
    needs: ["write", "state"],
    async run(ctx) {
      // code_challenge_method: only the stated default S256 generated at MUST; provider_type: only null
      await echoProviders(ctx, ["S256"], [], "MUST");
      // plain (D-02) and a vendor name (placeholders in the interface spec, D-57) are decisions: a body with one may
      // be refused, but one accepted comes back as sent, as every other field does
      // both in the run's enum body that holds plain and a vendor name, where the target took it (D-245)
      const shared = await enumRoundWhere(
        ctx,
        (body) => body.code_challenge_method === "plain" && typeof body.provider_type === "string",
      );
      if (shared?.record) {
        const want = { uses_pkce: true, code_challenge_method: "plain", provider_type: shared.body.provider_type };
        await readBackAsSent(ctx, shared.exchange, shared.record, {
          kind: "provider",
          want,
          what: `create provider with ${JSON.stringify(want)}`,
        });
        return sharedAnswerConforms(ctx, shared.exchange);
      }
      await judgeEach(ctx, decidedProviderValues, (fields) =>
        createdAsSent(ctx, {
          kind: "provider",
          body: { ...providerBody(ctx.name("decided")), ...fields },
          want: fields,
          what: `create provider with ${JSON.stringify(fields)}`,
          refused: { as: "no-verdict", why: "D-02 and D-57 are the reference server's choices of these values" },
        }),
      );
    },
  },
  {
    id: "POS-003",
    level: "MUST",
    tags: [...tags, "listDeployments"],
    statement:
      "Generated valid list queries (any stated filters but status, alone or together, limit 1 to 100, offset at least 0, and each stated parameter no generator writes drawn from the contract's schema, a refusal of such a query no verdict) are accepted with 2xx",
    specRef: "interface-spec: 5. List deployments (query parameters; Limits); D-490, D-491",
    needs: [],
    async run(ctx) {
      // the values the status filter takes are not stated (interface spec, open point 2): POS-006 sends them at SHOULD
      await listQueriesAccepted(ctx, statedFilters, "MUST");
    },
  },
  {
    id: "POS-004",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "listDeployments", "source-rules"],
    statement:
      "Every generated deployment body the per-source table allows (every source of the hosting kind, random optional fields, and every field the contract declares that the source allows and no generator writes, drawn from its schema) is accepted and comes back unchanged",
    specRef: "D-48 (required, optional and forbidden fields per source), D-490",
    needs: ["write", "state"],
    async run(ctx) {
      await echoDeployments(ctx, true);
    },
  },
  {
    id: "POS-005",
    level: "SHOULD",
    tags: [...tags, "createOAuthProvider", "listOAuthProviders"],
    statement:
      "Generated OAuth provider bodies with code_challenge_method S256 or plain, provider_type one of the three vendor names, and every field the contract declares that no generator writes (drawn from its schema) are accepted and come back unchanged",
    specRef: "D-02 (code_challenge_method S256 | plain), D-57 (the three vendor names), D-490",
    needs: ["write", "state"],
    async run(ctx) {
      await echoProviders(ctx, ["S256", "plain"], ["microsoft", "salesforce", "slack"], "SHOULD");
    },
  },
  {
    id: "POS-007",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec"],
    statement:
      "A self-hosted deployment whose resource spec holds every field the interface spec names (each workload, scaling, the database, service_account_name, image_pull_secrets, volumes, volume_mounts, init_containers and sidecars with every named container field), walked from the contract, comes back with each as sent, in the create answer and in the list",
    specRef:
      "interface-spec: ResourceSpec, Container object; 6. Create deployment (the response is the deployment record)",
    needs: ["write", "state", "self_hosted"],
    async run(ctx) {
      await echoFullResourceSpec(ctx, "named");
    },
  },
  {
    id: "POS-008",
    level: "SHOULD",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec"],
    statement:
      "The same deployment with its free-form objects filled too (labels and annotations with mixed-case keys, volume sources, container resources, env valueFrom and envFrom, securityContext) is accepted and comes back with each as sent",
    specRef: "D-01 (free-form objects stored as sent), D-65, D-250",
    needs: ["write", "state", "self_hosted"],
    async run(ctx) {
      await echoFullResourceSpec(ctx, "free-form-as-sent");
    },
  },
  {
    id: "POS-013",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec"],
    statement:
      "The same deployment with its free-form objects filled (labels and annotations of 40 keys, volume sources, container resources, env valueFrom and envFrom, securityContext, nested values) may be refused, but once accepted every member sent comes back with its value as sent, in the create answer and the list: the target may add members, never drop or change one",
    specRef:
      "interface-spec: ResourceSpec (labels, annotations, volume sources, container objects: object fields; gap 1: inner fields not shown); 6. Create deployment (the response is the deployment record); D-457",
    needs: ["write", "state", "self_hosted"],
    async run(ctx) {
      await echoFullResourceSpec(ctx, "free-form-kept");
    },
  },
  {
    id: "POS-009",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec"],
    statement:
      'The same self-hosted deployment with every resource spec field at its zero (every number 0, service_account_name "", every array and object empty) comes back with each as sent, none dropped or made null',
    specRef:
      "interface-spec: ResourceSpec (integer, number, string, array and object fields); 6. Create deployment (the response is the deployment record)",
    needs: ["write", "state", "self_hosted"],
    async run(ctx) {
      await echoFullResourceSpec(ctx, "named", "zero");
    },
  },
  {
    id: "POS-010",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec"],
    statement: `The same self-hosted deployment with every integer of its resource spec ${wideInteger} (beyond 32 bits) is refused with a 4xx, or accepted and comes back with each as sent, in the create answer and in the list; never a 5xx`,
    specRef:
      "interface-spec: ResourceSpec (integer fields, no bound shown; Limits: field bounds not shown); D-133 (the reference server's bounds refuse it)",
    needs: ["write", "state", "self_hosted"],
    async run(ctx) {
      await echoFullResourceSpec(ctx, "named", "wide");
    },
  },
  {
    id: "POS-011",
    level: "MUST",
    tags: [...tags, "createOAuthProvider", "createDeployment", "listOAuthProviders", "listDeployments", "spelling"],
    statement:
      "Strings a normalizer would rewrite come back byte for byte as sent, in the create answer and the list: provider URLs in capitals, with the default port, dot segments, no path and %-encoded unreserved letters; a custom_url likewise, a short image name with a mixed-case tag (nginx:1.27-Alpine, acme/agent:1.0.0-RC1), a graph_config_path starting ./ and a source_tarball_path with ./ and // (a refused body is no verdict)",
    specRef:
      "interface-spec: OAuth provider and Deployment records (auth_url, token_url, custom_url, image_uri, graph_config_path: string); 1. and 6. (the response is the record created)",
    needs: ["write", "state"],
    run: spellingsKept,
  },
  {
    id: "POS-012",
    level: "MUST",
    tags: [...tags, "createDeployment", "listDeployments", "resource-spec", "secrets", "secret_references"],
    statement:
      "A deployment's secrets (by name, in no sorted order) come back named in the order sent; a self-hosted one's secret_references, image_pull_secrets, volume_mounts (readOnly false and true) and a sidecar's env and args likewise, in no sorted order and with an item repeated exactly; in the create answer and the list (a refused body is no verdict)",
    specRef:
      "interface-spec: Deployment (secrets: Secret[], secret_references: SecretReference[]), ResourceSpec (image_pull_secrets, volume_mounts, sidecars: arrays; a container's env and args); 6. Create deployment",
    needs: ["write", "state"],
    run: arraysKept,
  },
  {
    id: "POS-006",
    level: "SHOULD",
    tags: [...tags, "listDeployments", "status"],
    statement:
      "Generated valid list queries with every filter, status values of the enum (comma-separated) included, and every parameter the contract declares that no generator writes (drawn from its schema), are accepted with 2xx",
    specRef: "D-07 (the status filter takes the five status values, comma-separated), D-45 (filters combine), D-490",
    needs: [],
    async run(ctx) {
      await listQueriesAccepted(ctx, otherFilters, "SHOULD");
    },
  },
];
