/** Checks of authentication (D-13 to D-15: X-Api-Key, X-Tenant-Id, 401 and 403). */

import { ensure, expectStatus, isObject } from "../check-kit/assert.js";
import { paths } from "../check-kit/helpers.js";
import { type SampleRequest, sampledOperations, sampleRequest } from "../check-kit/operation-samples.js";
import { deploymentBody, plainSource } from "../model/data.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";

const tags = ["auth"];

/** One request per operation of the contract; creates carry valid bodies so only the credentials are wrong. */
/** Keys one edit away from `key`, each named by how it differs: none of them is the key. */
function nearMisses(key: string): [string, string][] {
  const flipped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
  const out: [string, string][] = [
    ["with one character more at its end", `${key}0`],
    ["without its last character", key.slice(0, -1)],
    ["with its last character changed", `${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`],
    // a server may trim the spaces around a field value (RFC 9110 5.5), never those inside it
    ["with a space inside it", `${key.slice(0, key.length >> 1)} ${key.slice(key.length >> 1)}`],
  ];
  if (flipped !== key) out.push(["in the other letter case", flipped]);
  return out;
}

function everyOperation(ctx: CheckContext): SampleRequest[] {
  return sampledOperations.map(({ operation }) => sampleRequest(ctx, operation, "any"));
}

/** The tags naming every operation of the contract. */
const everyOperationId = sampledOperations.map(({ operation }) => operation.id);

const edgeTags = ["edge"];

/** Requests that are wrong in more than their credentials. */
const wrongInOtherWays: (Omit<SendRequest, "auth" | "tenant"> & { label: string; tenantHeader?: string })[] = [
  {
    label: "malformed JSON",
    method: "POST",
    path: paths.deployments,
    raw: '{"name":',
    headers: { "Content-Type": "application/json" },
  },
  {
    label: "a body breaking the schema",
    method: "POST",
    path: paths.deployments,
    json: { name: 1, source: "ftp" },
  },
  {
    label: "a provider body breaking the schema",
    method: "POST",
    path: paths.providers,
    json: { provider_id: 7 },
  },
  {
    label: "a text/plain body",
    method: "POST",
    path: paths.deployments,
    raw: "hello",
    headers: { "Content-Type": "text/plain" },
  },
  { label: "limit=0", method: "GET", path: paths.deployments, query: { limit: 0 } },
  { label: "status=RUNNING", method: "GET", path: paths.deployments, query: { status: "RUNNING" } },
  { label: "a malformed integration id", method: "GET", path: paths.repos("not-a-uuid") },
  { label: "a malformed X-Tenant-Id", method: "GET", path: paths.deployments, tenantHeader: "not-a-uuid" },
];

/** A missing or unknown key answers 401 whatever else is wrong with the request (D-13). */
function authFirst(id: string, key: "none" | "unknown", label: string): Check {
  return {
    id,
    level: "SHOULD",
    tags: [...edgeTags, "auth", "validation"],
    statement: `${label}, a request that is wrong in other ways too (bad body, bad content type, bad query, bad tenant or path id) answers 401`,
    specRef: "D-13 (a missing or unknown key is 401 before anything else of the request is looked at)",
    needs: ["server"],
    async run(ctx) {
      const auth = key === "none" ? "none" : { key: `dk_conformance_wrong_${ctx.config.runId}` };
      for (const { label: what, tenantHeader, ...req } of wrongInOtherWays) {
        const ex = await ctx.send({ ...req, auth, tenant: tenantHeader ?? "none" });
        expectStatus(ex, 401, `${what}, ${label.toLowerCase()}`);
      }
    },
  };
}

export const authChecks: Check[] = [
  {
    id: "AUTH-001",
    level: "SHOULD",
    tags: [...tags, ...everyOperationId],
    statement: "Every operation without X-Api-Key answers 401",
    specRef: "D-13 to D-15 (missing key: 401)",
    needs: [],
    async run(ctx) {
      for (const { label, ...req } of everyOperation(ctx))
        expectStatus(await ctx.send({ ...req, auth: "none", tenant: "none" }), 401, `${label} without X-Api-Key`);
    },
  },
  {
    id: "AUTH-002",
    level: "SHOULD",
    tags: [...tags, ...everyOperationId],
    statement:
      "Every operation with an unknown X-Api-Key answers 401 with a problem detail whose detail is a non-empty string, and so does the deployment list with a near miss of the key (one character more or less, the last one changed, a space inside it, the other letter case)",
    specRef: "D-13 to D-15 (unknown key: 401), D-16 (a detail a client can act on)",
    needs: ["state"],
    async run(ctx) {
      const key = `dk_conformance_wrong_${ctx.config.runId}`;
      for (const { label, ...req } of everyOperation(ctx)) {
        const ex = await ctx.send({ ...req, auth: { key }, tenant: "none" });
        expectStatus(ex, 401, `${label} with an unknown X-Api-Key`);
        const detail = isObject(ex.json) ? ex.json.detail : undefined;
        ensure(
          typeof detail === "string" && detail.trim() !== "",
          `${label} with an unknown X-Api-Key: the problem's detail is ${JSON.stringify(detail)}`,
          ex,
        );
      }
      // near misses of the user's key (masked in reports as the key is): a key compared by a prefix, or without case,
      // lets them in
      for (const [how, nearMiss] of nearMisses(ctx.config.apiKey)) {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query: { limit: 1 },
          operation: "listDeployments",
          auth: { key: nearMiss, masked: true },
          tenant: "none",
        });
        expectStatus(ex, 401, `list deployments with the key ${how}`);
      }
    },
  },
  {
    id: "AUTH-003",
    level: "SHOULD",
    tags: [...tags, "errors", "listDeployments"],
    statement: "A 401 is an application/problem+json of type unauthenticated with status 401",
    specRef: "D-13 to D-15, D-16",
    needs: ["server"],
    async run(ctx) {
      const ex = await ctx.send({ method: "GET", path: paths.deployments, auth: "none", tenant: "none" });
      expectStatus(ex, 401, "list deployments without X-Api-Key");
      ensure(
        (ex.response.headers["content-type"] ?? "").startsWith("application/problem+json"),
        `Content-Type is ${ex.response.headers["content-type"]}`,
        ex,
      );
      ensure(
        isObject(ex.json) &&
          ex.json.type === "urn:deployment-service:problem:unauthenticated" &&
          ex.json.status === 401,
        "the problem is not of type unauthenticated with status 401",
        ex,
      );
    },
  },
  {
    id: "AUTH-004",
    level: "SHOULD",
    tags: [...tags, "tenant", "listDeployments", "listOAuthProviders"],
    statement: "An X-Tenant-Id the key cannot reach answers 403; a malformed one 422",
    specRef: "D-13 to D-15 (a tenant the key cannot reach: 403)",
    needs: ["state"],
    async run(ctx) {
      const foreign = "00000000-0000-4000-8000-0000000000cf";
      expectStatus(
        await ctx.send({ method: "GET", path: paths.deployments, tenant: foreign, operation: "listDeployments" }),
        403,
        "list deployments with an unreachable X-Tenant-Id",
      );
      expectStatus(
        await ctx.send({ method: "GET", path: paths.providers, tenant: foreign, operation: "listOAuthProviders" }),
        403,
        "list providers with an unreachable X-Tenant-Id",
      );
      expectStatus(
        await ctx.send({ method: "GET", path: paths.deployments, tenant: "not-a-uuid", operation: "listDeployments" }),
        422,
        "list deployments with a malformed X-Tenant-Id",
      );
    },
  },
  {
    id: "AUTH-005",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement: "A request rejected for its credentials creates nothing",
    specRef: "D-13 to D-15",
    needs: ["state"],
    async run(ctx) {
      const name = ctx.name("noauth");
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: deploymentBody(name, plainSource(ctx.config.hosting)),
        auth: { key: "dk_wrong" },
        tenant: "none",
      });
      const listed = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: { name_contains: name },
        operation: "listDeployments",
      });
      const n = isObject(listed.json) && Array.isArray(listed.json.resources) ? listed.json.resources.length : -1;
      ensure(
        n === 0,
        `after a create with a wrong key (answered ${ex.response.status}), ${n} deployments named ${name} exist`,
        listed,
      );
    },
  },
  authFirst("EDGE-009", "none", "Without a key"),
  authFirst("EDGE-014", "unknown", "With an unknown key"),
  {
    id: "AUTH-006",
    level: "SHOULD",
    tags: [...tags, "http", ...everyOperationId],
    statement:
      "Every 401 of a request without X-Api-Key, on every operation, carries WWW-Authenticate with the ApiKey challenge naming the X-Api-Key header",
    specRef: "D-115 (RFC 9110 §11.6.1, §15.5.2: a 401 carries a challenge)",
    needs: [],
    async run(ctx) {
      for (const { label, ...req } of everyOperation(ctx)) {
        const ex = await ctx.send({ ...req, auth: "none", tenant: "none" });
        expectStatus(ex, 401, `${label} without X-Api-Key`);
        const challenge = ex.response.headers["www-authenticate"] ?? "";
        ensure(
          /^ApiKey(?:[ \t]|$)/i.test(challenge) && /header="?X-Api-Key"?/i.test(challenge),
          `${label}: WWW-Authenticate is ${JSON.stringify(challenge)}, not an ApiKey challenge naming header="X-Api-Key"`,
          ex,
        );
      }
    },
  },
];
