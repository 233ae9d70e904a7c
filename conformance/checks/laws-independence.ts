/**
 * Independence laws (LAW-003, LAW-004, LAW-018): an answer does not move after a write it does not depend on, a query
 * parameter of another operation changes nothing or is refused exactly as an unknown one, and a create changes no
 * record it did not make (D-371).
 */
import { ensure, expect2xx, isObject } from "../check-kit/assert.js";
import { undeclaredParameter } from "../check-kit/error-requests.js";
import {
  createDeployment,
  createProvider,
  differences,
  type Json,
  listDeployments,
  listProviders,
  paths,
  plainProvider,
} from "../check-kit/helpers.js";
import { deploymentBody, plainSource, type Source, sourcesFor } from "../model/data.js";
import { keptFields } from "../model/deployment-model.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** A read the law judges: what it sends, and what of its answer must not move. */
interface Read {
  what: string;
  request: SendRequest;
}

/**
 * The answer of a read as the law compares it: its status and its body, each listed deployment cut to the fields the
 * interface spec freezes (D-234), since any other may move on its own after create.
 */
function shown(exchange: Exchange): { status: number; body: unknown } {
  const drop = (record: unknown) => (isObject(record) ? keptFields(record, "MUST") : record);
  const body = exchange.json;
  if (isObject(body) && Array.isArray(body.resources))
    return { status: exchange.response.status, body: { ...body, resources: body.resources.map(drop) } };
  return { status: exchange.response.status, body };
}

/** The reads that a deployment create does not touch: the providers list and operation 3's repositories. */
function readsBesideDeployments(ctx: CheckContext): Read[] {
  const reads: Read[] = [
    {
      what: "the OAuth providers list",
      request: { method: "GET", path: paths.providers, operation: "listOAuthProviders" },
    },
  ];
  if (ctx.config.integrationId)
    reads.push({
      what: "the repositories of --integration-id (operation 3)",
      request: { method: "GET", path: paths.repos(ctx.config.integrationId), operation: "listCodehostRepositories" },
    });
  return reads;
}

/** Reads each of `reads`, runs `write`, reads them again: each answer the same, the fields that may move apart. */
async function unmovedBy(ctx: CheckContext, reads: Read[], writeWhat: string, write: () => Promise<void>) {
  const before = [];
  for (const read of reads) {
    const exchange = await ctx.send(read.request);
    expect2xx(exchange, read.what);
    before.push(shown(exchange));
  }
  await write();
  for (const [i, read] of reads.entries()) {
    const exchange = await ctx.send(read.request);
    const now = shown(exchange);
    const was = before[i]!;
    const diff =
      isObject(now.body) && isObject(was.body)
        ? differences(now.body as Json, was.body as Json)
        : JSON.stringify(now.body) === JSON.stringify(was.body)
          ? []
          : [`was ${JSON.stringify(was.body).slice(0, 300)}, now ${JSON.stringify(now.body).slice(0, 300)}`];
    ensure(
      now.status === was.status && diff.length === 0,
      `${read.what} moved after ${writeWhat}, which it does not depend on: ${now.status === was.status ? diff.slice(0, 5).join("; ") : `${was.status} before, ${now.status} after`}`,
      exchange,
    );
  }
}

/** LAW-003: every (write, read) pair that does not depend on each other: creates of deployments and of a provider. */
async function writesMoveOnlyTheirOwn(ctx: CheckContext): Promise<void> {
  await unmovedBy(ctx, readsBesideDeployments(ctx), "two deployment creates", async () => {
    await createDeployment(ctx, { label: "indep" });
    await createDeployment(ctx, { label: "indep" });
  });
  const made = await createDeployment(ctx, { label: "indep" });
  const deployments: Read = {
    what: "a deployment list by deployment_ids",
    request: {
      method: "GET",
      path: paths.deployments,
      query: { deployment_ids: String(made.record.id) },
      operation: "listDeployments",
    },
  };
  const reads = [deployments, ...readsBesideDeployments(ctx).slice(1)];
  await unmovedBy(ctx, reads, "an OAuth provider create", async () => void (await createProvider(ctx)));
}

/** Parameters of the deployment list (operation 5) the other list operations do not take, and an unknown one. */
const foreignParameters: Record<string, string>[] = [
  { limit: "1" },
  { offset: "1" },
  { name_contains: "zz-no-such" },
  { deployment_ids: "00000000-0000-4000-8000-00000000c0fe" },
  { status: "READY" },
  { limit: "0" },
];

/** The deployment list's parameters named in another letter case: query names are case-sensitive (RFC 3986 §6.2.2.1). */
const otherCaseParameters: Record<string, string>[] = [
  { LIMIT: "1" },
  { Offset: "1" },
  { Name_Contains: "zz-no-such" },
];

/**
 * Sends `read` with each query of `queries` beside its own: each must answer as the read without it, or as the read
 * with an unknown parameter (D-371).
 */
async function answeredAsUnknown(ctx: CheckContext, read: Read, queries: Record<string, string>[], what: string) {
  const own = typeof read.request.query === "object" ? read.request.query : {};
  const plain = shown(await ctx.send(read.request));
  const unknown = shown(await ctx.send({ ...read.request, query: { ...own, ...undeclaredParameter } }));
  for (const query of queries) {
    const exchange = await ctx.send({ ...read.request, query: { ...own, ...query }, noValidate: true });
    const got = shown(exchange);
    const same = (a: typeof got) =>
      a.status === got.status && (a.status >= 300 || JSON.stringify(a.body) === JSON.stringify(got.body));
    ensure(
      same(plain) || same(unknown),
      `${read.what} with ${new URLSearchParams(query).toString()} (${what}) answered ${got.status}, neither as without it (${plain.status}) nor as an unknown parameter (${unknown.status})${got.status === plain.status ? "; the body differs" : ""}`,
      exchange,
    );
  }
}

/**
 * LAW-004: each list operation other than operation 5 answers a foreign parameter as it answers none, or as an unknown
 * one; operation 5 answers its own parameters named in another letter case so too.
 */
async function foreignParametersChangeNothing(ctx: CheckContext): Promise<void> {
  for (const read of readsBesideDeployments(ctx))
    await answeredAsUnknown(ctx, read, foreignParameters, "a parameter of the deployment list");
  // deployments the target holds, read by id so the page holds still (their status may move: shown() leaves it out)
  const { resources } = await listDeployments(ctx, { limit: 5 });
  if (resources.length === 0) return ctx.note("no deployment listed: parameter names in another case not judged");
  const byId: Read = {
    what: "the deployment list by deployment_ids",
    request: {
      method: "GET",
      path: paths.deployments,
      query: { deployment_ids: resources.map((r) => String(r.id)).join(",") },
      operation: "listDeployments",
    },
  };
  await answeredAsUnknown(ctx, byId, otherCaseParameters, "a parameter's name in another letter case");
}

/** A second body for a name the tenant holds: another source where the hosting kind has one, another image, a secret. */
function rivalDeployment(ctx: CheckContext, name: string): Json {
  const plain = plainSource(ctx.config.hosting);
  const other = sourcesFor[ctx.config.hosting].find((s: Source) => s !== plain && s !== "codehost");
  const body = deploymentBody(name, other ?? plain);
  const revision = body.source_revision_config as Json;
  if (typeof revision.image_uri === "string") revision.image_uri = revision.image_uri.replace(/:[\w.-]+$/, ":rival");
  body.secrets = [{ name: "RIVAL_SECRET", value: "rival-value" }];
  return body;
}

/** Sends a create of a key the target holds: a refusal is legal, a 2xx must answer a record of its own id. */
async function rivalCreate(
  ctx: CheckContext,
  what: string,
  request: Parameters<CheckContext["send"]>[0],
  heldId: unknown,
) {
  const exchange = await ctx.send(request);
  const { status } = exchange.response;
  if (status < 200 || status > 299) return;
  const answer = exchange.json as Json | undefined;
  ensure(
    answer?.id !== heldId,
    `${what} answered ${status} with the held record's id ${String(heldId)}: a create answers the record it made, and changes none it did not make`,
    exchange,
  );
  if (typeof answer?.id === "string")
    ctx.created({
      kind: request.path === paths.providers ? "oauth_provider" : "deployment",
      id: answer.id,
      name: String((request.json as Json).provider_id ?? (request.json as Json).name),
      key: "main",
    });
}

/** LAW-018: a create of a name (provider_id) the tenant (organization) holds leaves the held record as it was made. */
async function createsChangeNoHeldRecord(ctx: CheckContext): Promise<void> {
  const name = ctx.name("held");
  const held = await createDeployment(ctx, { body: deploymentBody(name, plainSource(ctx.config.hosting)) });
  const rival = rivalDeployment(ctx, name);
  await rivalCreate(
    ctx,
    `a create of the held name ${name} (source ${String(rival.source)}, another image, a secret)`,
    { method: "POST", path: paths.deployments, json: rival, operation: "createDeployment", noValidate: true },
    held.record.id,
  );
  const wantDeployment: Json = {
    ...keptFields(held.record, "MUST"),
    source_config: held.body.source_config as Json,
    source_revision_config: held.body.source_revision_config as Json,
    secrets: [],
  };
  const { exchange, resources } = await listDeployments(ctx, { deployment_ids: String(held.record.id) });
  const listed = resources.find((r) => r.id === held.record.id);
  ensure(listed !== undefined, `the held deployment ${name} is no longer listed by its id`, exchange);
  const moved = differences(listed, wantDeployment);
  ensure(
    moved.length === 0,
    `the held deployment ${name} changed after a create of its name that did not make it: ${moved.slice(0, 5).join("; ")}`,
    exchange,
  );

  // the held provider is the run's shared one (D-245)
  const provider = await plainProvider(ctx);
  const providerId = String(provider.body.provider_id);
  const rivalProvider = {
    provider_id: providerId,
    name: "Rival provider",
    client_id: "rival-client",
    auth_url: "https://rival.example.com/authorize",
    token_url: "https://rival.example.com/token",
  };
  await rivalCreate(
    ctx,
    `a create of the held provider_id ${providerId} (another name, client and URLs)`,
    { method: "POST", path: paths.providers, json: rivalProvider, operation: "createOAuthProvider", noValidate: true },
    provider.record.id,
  );
  const wantProvider: Json = {
    ...provider.body,
    id: provider.record.id,
    organization_id: provider.record.organization_id,
    created_at: provider.record.created_at,
  };
  const providers = await listProviders(ctx);
  const listedProvider = providers.records.find((r) => r.id === provider.record.id);
  ensure(listedProvider !== undefined, `the held provider ${providerId} is no longer listed`, providers.exchange);
  const changed = differences(listedProvider, wantProvider);
  ensure(
    changed.length === 0,
    `the held provider ${providerId} changed after a create of its provider_id that did not make it: ${changed.slice(0, 5).join("; ")}`,
    providers.exchange,
  );
}

const tags = ["laws", "independence", "listOAuthProviders", "listCodehostRepositories", "listDeployments"];

export const independenceLawChecks: Check[] = [
  {
    id: "LAW-003",
    level: "MUST",
    tags,
    statement:
      "An answer does not move after a write it does not depend on: the OAuth providers list and operation 3's repositories after deployment creates; a deployment list by id and the repositories after an OAuth provider create",
    specRef:
      "interface-spec: What the service does (providers, repositories and deployments are separate resources); 1., 2., 3., 5., 6. (each operation creates or lists its own records)",
    needs: ["write", "state"],
    run: writesMoveOnlyTheirOwn,
  },
  {
    id: "LAW-018",
    level: "MUST",
    tags: [...tags, "createOAuthProvider", "createDeployment"],
    statement:
      "A create changes no record it did not make: a deployment create of a name the tenant holds (another source where the hosting kind has one, another image, a secret) and an OAuth provider create of a provider_id the organization holds (another name, client and URLs) are refused or answered with a record of their own id, and the held record is listed afterwards as it was made",
    specRef:
      'interface-spec: What the service does (definitions and deployments can be created and listed; no operation changes one); Deployment (name and source: "Cannot be changed after creation"); 6. (name, source: "Immutable after creation"); D-455',
    needs: ["write", "state"],
    run: createsChangeNoHeldRecord,
  },
  {
    id: "LAW-004",
    level: "SHOULD",
    tags,
    statement:
      "A query parameter of the deployment list (limit, offset, name_contains, deployment_ids, status) sent to the providers list or to operation 3, and one named in another letter case (LIMIT, Offset, Name_Contains) sent to the deployment list, changes nothing, or is refused exactly as an unknown parameter",
    specRef:
      "D-371 (a parameter an operation does not take is an unknown one; names are case-sensitive, RFC 3986 §6.2.2.1); interface-spec: 2. and 3. (no query parameters)",
    needs: ["server"],
    run: foreignParametersChangeNothing,
  },
];
