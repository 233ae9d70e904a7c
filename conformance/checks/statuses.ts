/**
 * Checks that every operation gives each error status D-27 documents for it: one check per status, one row per
 * operation of the operations table that lists that status, so a new operation is judged without a new check.
 */
import { type ContractOperation, operationList } from "../../contract/index.js";
import { expectStatus } from "../check-kit/assert.js";
import { createDeployment } from "../check-kit/helpers.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";
import { routeOf } from "../target/operation-paths.js";
import { expectProblem, urn } from "./errors.js";

const tags = ["errors", "statuses"];

/** The request of an operation that would succeed, or why this run cannot build one (an integration id not given). */
function validRequest(ctx: CheckContext, op: ContractOperation): SendRequest | string {
  const route = routeOf(ctx.config, op.id);
  let path = route.path;
  if (path.includes("{integration_id}")) {
    const id = op.id === "listManagedCodehostRepositories" ? ctx.config.managedIntegrationId : ctx.config.integrationId;
    if (!id) return `${op.id} needs --${op.id === "listManagedCodehostRepositories" ? "managed-" : ""}integration-id`;
    path = path.replace("{integration_id}", id);
  }
  const request: SendRequest = { method: route.method, path, operation: op.id };
  if (op.id === "createOAuthProvider") request.json = providerBody(ctx.name("status"));
  if (op.id === "createDeployment") request.json = deploymentBody(ctx.name("status"), plainSource(ctx.config.hosting));
  return request;
}

/**
 * Sends `change(valid request)` to every operation documenting `status` and expects that status as a problem of
 * `type`. Rows the run cannot build are noted, not failed; a check with no row left is skipped.
 */
async function expectEverywhere(
  ctx: CheckContext,
  status: number,
  type: string,
  what: string,
  change: (request: SendRequest) => SendRequest,
  only: (op: ContractOperation) => boolean = () => true,
): Promise<void> {
  const rows = operationList.filter((op) => op.statuses.includes(status) && only(op));
  let judged = 0;
  for (const op of rows) {
    const request = validRequest(ctx, op);
    if (typeof request === "string") {
      ctx.note(`not judged: ${request}`);
      continue;
    }
    const ex = await ctx.send({ ...change(request), noValidate: true });
    expectStatus(ex, status, `${op.id} ${what}`);
    expectProblem(ex, urn(type), `${op.id}: ${status} answer`);
    judged += 1;
  }
  if (judged === 0) ctx.skip(`no operation documenting ${status} could be called in this run`);
}

/** Over 1 MiB once serialized (D-30). */
const padding = "x".repeat(1024 * 1024 + 16);

export const statusChecks: Check[] = [
  {
    id: "STATUS-001",
    level: "SHOULD",
    tags: [...tags, "tenant"],
    statement: "Every operation answers 403 forbidden when X-Tenant-Id names a tenant the key cannot reach",
    specRef: "D-19, D-27 (every operation lists 403)",
    needs: ["otherApiKey", "write", "state", "server"],
    async run(ctx) {
      const foreign = await ctx.fixture("foreign-tenant", async () => {
        const { record } = await createDeployment(ctx, { label: "status-other", auth: "other" });
        return String(record.tenant_id);
      });
      await expectEverywhere(ctx, 403, "forbidden", `with the other organization's tenant ${foreign}`, (r) => ({
        ...r,
        tenant: foreign,
      }));
    },
  },
  {
    id: "STATUS-002",
    level: "SHOULD",
    tags: [...tags, "tenant", "validation"],
    statement: "Every operation answers 422 validation for an X-Tenant-Id that is not a uuid",
    specRef: "D-25, D-27 (every operation lists 422 for a malformed X-Tenant-Id)",
    needs: ["server"],
    async run(ctx) {
      await expectEverywhere(ctx, 422, "validation", "with X-Tenant-Id: not-a-uuid", (r) => ({
        ...r,
        tenant: "not-a-uuid",
      }));
    },
  },
  {
    id: "STATUS-003",
    level: "SHOULD",
    tags: [...tags, "limits"],
    statement: "Every operation that takes a body answers 413 payload-too-large above 1 MiB",
    specRef: "D-23, D-27, D-30 (operations with a body list 413)",
    needs: ["server"],
    async run(ctx) {
      await expectEverywhere(
        ctx,
        413,
        "payload-too-large",
        "with a body above 1 MiB",
        (r) => ({ ...r, json: { ...(r.json as object), padding } }),
        (op) => op.requestBody !== undefined,
      );
    },
  },
  {
    id: "STATUS-004",
    level: "SHOULD",
    tags: [...tags, "content-type"],
    statement: "Every operation that takes a body answers 415 unsupported-media-type for a form body",
    specRef: "D-24, D-27 (operations with a body list 415)",
    needs: ["server"],
    async run(ctx) {
      await expectEverywhere(
        ctx,
        415,
        "unsupported-media-type",
        "with a form body",
        (r) => {
          const { json, ...rest } = r;
          const form = new URLSearchParams(
            Object.entries(json as Record<string, string>).map(([k, v]) => [k, String(v)]),
          );
          return { ...rest, raw: form.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } };
        },
        (op) => op.requestBody !== undefined,
      );
    },
  },
];
