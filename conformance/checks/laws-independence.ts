/**
 * Independence laws (LAW-003, LAW-004): an answer does not move after a write it does not depend on, and a query
 * parameter of another operation changes nothing or is refused exactly as an unknown one (D-371).
 */
import { ensure, expect2xx, isObject } from "../check-kit/assert.js";
import { createDeployment, createProvider, differences, type Json, paths } from "../check-kit/helpers.js";
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
const unknownParameter = { cf_unknown_parameter: "1" };

/** LAW-004: each list operation other than operation 5 answers a foreign parameter as it answers none, or as an unknown one. */
async function foreignParametersChangeNothing(ctx: CheckContext): Promise<void> {
  const reads = readsBesideDeployments(ctx);
  for (const read of reads) {
    const plain = shown(await ctx.send(read.request));
    const unknown = shown(await ctx.send({ ...read.request, query: unknownParameter }));
    for (const query of foreignParameters) {
      const exchange = await ctx.send({ ...read.request, query, noValidate: true });
      const got = shown(exchange);
      const same = (a: typeof got) =>
        a.status === got.status && (a.status >= 300 || JSON.stringify(a.body) === JSON.stringify(got.body));
      ensure(
        same(plain) || same(unknown),
        `${read.what} with ${new URLSearchParams(query).toString()} (a parameter of the deployment list) answered ${got.status}, neither as without it (${plain.status}) nor as an unknown parameter (${unknown.status})${got.status === plain.status ? "; the body differs" : ""}`,
        exchange,
      );
    }
  }
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
    id: "LAW-004",
    level: "SHOULD",
    tags,
    statement:
      "A query parameter of the deployment list (limit, offset, name_contains, deployment_ids, status) sent to the providers list or to operation 3 changes nothing, or is refused exactly as an unknown parameter",
    specRef:
      "D-371 (a parameter an operation does not take is an unknown one); interface-spec: 2. and 3. (no query parameters)",
    needs: ["server"],
    run: foreignParametersChangeNothing,
  },
];
