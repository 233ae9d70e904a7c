/** Operations the checks share: create and list through the contract, remembering what was created. */

import { operation } from "../../contract/index.js";
import { deploymentBody, plainSource, providerBody, type RepositoryRecord, type Source } from "../model/data.js";
import { type CheckContext, CheckSkip, type SendRequest } from "../runner/check.js";
import { noVerdictWhenBodyRefused } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { routeOf } from "../target/operation-paths.js";
import { ensure, expect2xx, isObject, jsonArray, jsonObject } from "./assert.js";
import { sameJson } from "./same-json.js";

/** The paths of the operations the checks call, from the contract. */
export const paths = {
  providers: operation("listOAuthProviders").path,
  deployments: operation("listDeployments").path,
  repos: (id: string) => operation("listCodehostRepositories").path.replace("{integration_id}", id),
};

/** The request that lists a managed integration's repositories (operation 4) where this target serves it (D-382). */
export function managedReposRequest(ctx: Pick<CheckContext, "config">, id: string): SendRequest {
  const route = routeOf(ctx.config, "listManagedCodehostRepositories");
  return {
    method: route.method,
    path: route.path.replace("{integration_id}", id),
    operation: "listManagedCodehostRepositories",
  };
}

export type Json = Record<string, unknown>;

/** Sends an OAuth provider create and records the provider a 2xx made; a refusal is the caller's to judge. */
export async function sendProviderCreate(
  ctx: CheckContext,
  body: Json,
  auth: "main" | "other" = "main",
): Promise<Exchange> {
  const exchange = await ctx.send({
    method: "POST",
    path: paths.providers,
    json: body,
    operation: "createOAuthProvider",
    auth,
  });
  if (exchange.response.status < 300 && isObject(exchange.json))
    ctx.created({ kind: "oauth_provider", id: String(exchange.json.id), name: String(body.provider_id), key: auth });
  return exchange;
}

/** Creates an OAuth provider and records it; returns the exchange and the record. */
export async function createProvider(
  ctx: CheckContext,
  body?: Json,
  auth: "main" | "other" = "main",
): Promise<{ exchange: Exchange; record: Json; body: Json }> {
  const sent = body ?? providerBody(ctx.name("prov"));
  const exchange = await sendProviderCreate(ctx, sent, auth);
  expect2xx(exchange, "create OAuth provider");
  return { exchange, record: jsonObject(exchange, "create OAuth provider"), body: sent };
}

/**
 * The provider every check of the run that only reads it back or needs one held shares, created once with only the
 * required fields: the interface has no delete and a target may cap providers per organization, so a run creates no
 * more than its checks need (D-245).
 */
export function plainProvider(ctx: CheckContext): Promise<{ exchange: Exchange; record: Json; body: Json }> {
  return ctx.fixture("plain-provider", () => createProvider(ctx), "run");
}

/** A provider created once per run with a client_secret (its value is `secret` of the answer), shared likewise (D-245). */
export function secretProvider(
  ctx: CheckContext,
): Promise<{ exchange: Exchange; record: Json; body: Json; secret: string }> {
  return ctx.fixture(
    "secret-provider",
    async () => {
      const secret = `cf-secret-${ctx.config.runId}-${Math.random().toString(36).slice(2, 8)}`;
      const made = await createProvider(ctx, { ...providerBody(ctx.name("prov")), client_secret: secret });
      return { ...made, secret };
    },
    "run",
  );
}

/** Lists OAuth providers. */
export async function listProviders(
  ctx: CheckContext,
  auth: "main" | "other" = "main",
): Promise<{ exchange: Exchange; records: Json[] }> {
  const exchange = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders", auth });
  expect2xx(exchange, "list OAuth providers");
  return { exchange, records: jsonArray(exchange, "list OAuth providers") as Json[] };
}

/** Creates a deployment and records it. */
export async function createDeployment(
  ctx: CheckContext,
  options: {
    source?: Source;
    body?: Json;
    label?: string;
    auth?: "main" | "other";
    repository?: RepositoryRecord;
  } = {},
): Promise<{ exchange: Exchange; record: Json; body: Json }> {
  const source = options.source ?? plainSource(ctx.config.hosting);
  const repository =
    source === "codehost" && !options.body ? (options.repository ?? (await firstRepository(ctx))) : options.repository;
  const body = options.body ?? deploymentBody(ctx.name(options.label ?? "dep"), source, repository);
  const auth = options.auth ?? "main";
  const exchange = await ctx.send({
    method: "POST",
    path: paths.deployments,
    json: body,
    operation: "createDeployment",
    auth,
  });
  // which fields each source requires is D-48, not the interface spec: a refusal is no verdict at MUST (D-180)
  noVerdictWhenBodyRefused(ctx, exchange, body.source);
  expect2xx(exchange, `create ${String(body.source)} deployment`);
  const record = jsonObject(exchange, "create deployment");
  ctx.created({ kind: "deployment", id: String(record.id), name: String(body.name), key: auth });
  return { exchange, record, body };
}

/** One page of the deployment list. */
export async function listDeployments(
  ctx: CheckContext,
  query: Record<string, string | number | boolean | undefined> = {},
  auth: "main" | "other" = "main",
): Promise<{ exchange: Exchange; resources: Json[]; offset: number }> {
  const exchange = await ctx.send({
    method: "GET",
    path: paths.deployments,
    query,
    operation: "listDeployments",
    auth,
  });
  expect2xx(exchange, "list deployments");
  const page = jsonObject(exchange, "list deployments");
  ensure(Array.isArray(page.resources), "list deployments: `resources` is not an array", exchange);
  return { exchange, resources: page.resources as Json[], offset: page.offset as number };
}

/**
 * Walks every page following the returned offset (interface-spec: "Pass this value as offset in the
 * next request"). The end is an empty page or an offset that does not advance; at most `maxPages`.
 */
export async function walkDeployments(
  ctx: CheckContext,
  query: Record<string, string | number | boolean | undefined>,
  limit: number,
  maxPages = 500,
): Promise<{ ids: string[]; pages: number; exchanges: Exchange[]; records: Json[] }> {
  const ids: string[] = [];
  const records: Json[] = [];
  const exchanges: Exchange[] = [];
  let offset = 0;
  for (let page = 0; page < maxPages; page++) {
    const { exchange, resources, offset: next } = await listDeployments(ctx, { ...query, limit, offset });
    exchanges.push(exchange);
    for (const r of resources) {
      ids.push(String(r.id));
      records.push(r);
    }
    if (resources.length === 0 || typeof next !== "number" || next <= offset)
      return { ids, pages: page + 1, exchanges, records };
    offset = next;
  }
  return { ids, pages: maxPages, exchanges, records };
}

/** The repositories of the configured integration (operation 3), fetched once per suite file. */
async function repositories(ctx: CheckContext): Promise<{ exchange: Exchange; records: RepositoryRecord[] }> {
  const id = ctx.config.integrationId;
  if (!id) throw new CheckSkip("no --integration-id given");
  return ctx.fixture(`repos:${id}`, async () => {
    const exchange = await ctx.send({ method: "GET", path: paths.repos(id), operation: "listCodehostRepositories" });
    expect2xx(exchange, "list code-host repositories");
    return { exchange, records: jsonArray(exchange, "list code-host repositories") as RepositoryRecord[] };
  });
}

/** The first repository of the configured integration, or a skip when it holds none. */
export async function firstRepository(ctx: CheckContext): Promise<RepositoryRecord> {
  const { records } = await repositories(ctx);
  const repo = records.find((r) => isObject(r));
  if (!repo) throw new CheckSkip("the configured integration lists no repository");
  return repo;
}

/**
 * A provider record read as the interface spec states it: an optional response field that is absent holds its stated
 * default (`token_endpoint_auth_method` client_secret_post, `is_dynamic_client` false) or, without one, null
 * (`provider_type`, `mcp_server_url`), so a record that leaves them out equals one that sends them (D-233).
 */
export function providerAsStated(record: Json): Json {
  return {
    provider_type: null,
    mcp_server_url: null,
    token_endpoint_auth_method: "client_secret_post",
    is_dynamic_client: false,
    ...record,
  };
}

/** Fields of a record that differ from the expected values. */
export function differences(record: Json, expected: Json, path = ""): string[] {
  const out: string[] = [];
  for (const [k, want] of Object.entries(expected)) {
    const got = record[k];
    if (isObject(want)) {
      if (!isObject(got)) out.push(`${path}${k}: expected an object, got ${JSON.stringify(got)}`);
      else out.push(...differences(got, want, `${path}${k}.`));
    } else if (!sameJson(got, want))
      out.push(`${path}${k}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  return out;
}

/**
 * Nanoseconds since the epoch of an RFC 3339 timestamp, keeping digits beyond milliseconds
 * (Date.parse drops them, which would make distinct instants look equal).
 */
export function instant(value: unknown): bigint | undefined {
  if (typeof value !== "string") return undefined;
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? "";
  const whole = Date.parse(value.replace(/\.\d+/, ""));
  if (Number.isNaN(whole)) return undefined;
  return BigInt(whole) * 1_000_000n + BigInt(`${fraction}000000000`.slice(0, 9));
}

/** Deployments a suite file creates once: `size` sharing a name stem, plus one container deployment with an image tag. */
interface DeploymentSet {
  stem: string;
  ids: string[];
  names: string[];
  containerId: string;
  containerName: string;
}

/**
 * Creates a suite file's deployment set once (a fixture named `label`): `size` deployments of the hosting kind's
 * plain source, then one container deployment, each body made by `bodyFor`.
 */
export function deploymentSet(
  ctx: CheckContext,
  label: string,
  size: number,
  bodyFor: (name: string, source: Source, container: boolean) => Json,
): Promise<DeploymentSet> {
  return ctx.fixture(`deployment-set:${label}`, async () => {
    const stem = `${ctx.prefix}${label}-`;
    const ids: string[] = [];
    const names: string[] = [];
    for (let i = 0; i < size; i++) {
      const name = `${stem}${i}`;
      const { record } = await createDeployment(ctx, { body: bodyFor(name, plainSource(ctx.config.hosting), false) });
      ids.push(String(record.id));
      names.push(name);
    }
    const containerName = `${ctx.prefix}${label}img`;
    const containerSource: Source = ctx.config.hosting === "cloud" ? "internal_container" : "external_container";
    const { record } = await createDeployment(ctx, { body: bodyFor(containerName, containerSource, true) });
    return { stem, ids, names, containerId: String(record.id), containerName };
  });
}

/** Sends a create and records what it created, whatever the check then concludes. */
export async function tryCreate(
  ctx: CheckContext,
  request: Omit<SendRequest, "method">,
  kind: "deployment" | "oauth_provider",
) {
  const ex = await ctx.send({ method: "POST", ...request, noValidate: true });
  if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
    ctx.created({ kind, id: ex.json.id, name: String(ex.json.name ?? ex.json.provider_id), key: "main" });
  return ex;
}
