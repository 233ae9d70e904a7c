/** Checks of authentication (D-13 to D-15: X-Api-Key, X-Tenant-Id, 401 and 403). */

import { ensure, expectStatus, isObject } from "../assert.js";
import type { Check, CheckContext, SendRequest } from "../check.js";
import { deploymentBody, plainSource, providerBody } from "../data.js";
import { paths } from "../helpers.js";

const tags = ["auth"];

/** One request per operation; creates carry valid bodies so only the credentials are wrong. */
function everyOperation(ctx: CheckContext): (Omit<SendRequest, "auth"> & { label: string })[] {
  const integration = ctx.config.integrationId ?? "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";
  const managed = ctx.config.managedIntegrationId ?? integration;
  return [
    { label: "list OAuth providers", method: "GET", path: paths.providers, operation: "listOAuthProviders" },
    {
      label: "create OAuth provider",
      method: "POST",
      path: paths.providers,
      json: providerBody(ctx.name("noauth")),
      operation: "createOAuthProvider",
    },
    {
      label: "list repositories",
      method: "GET",
      path: paths.repos(integration),
      operation: "listCodehostRepositories",
    },
    {
      label: "list managed repositories",
      method: "GET",
      path: paths.managedRepos(managed),
      operation: "listManagedCodehostRepositories",
    },
    { label: "list deployments", method: "GET", path: paths.deployments, operation: "listDeployments" },
    {
      label: "create deployment",
      method: "POST",
      path: paths.deployments,
      json: deploymentBody(ctx.name("noauth"), plainSource(ctx.config.hosting)),
      operation: "createDeployment",
    },
  ];
}

export const authChecks: Check[] = [
  {
    id: "AUTH-001",
    level: "SHOULD",
    tags: [
      ...tags,
      "listOAuthProviders",
      "createOAuthProvider",
      "listCodehostRepositories",
      "listManagedCodehostRepositories",
      "listDeployments",
      "createDeployment",
    ],
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
    tags: [
      ...tags,
      "listOAuthProviders",
      "createOAuthProvider",
      "listCodehostRepositories",
      "listManagedCodehostRepositories",
      "listDeployments",
      "createDeployment",
    ],
    statement: "Every operation with an unknown X-Api-Key answers 401",
    specRef: "D-13 to D-15 (unknown key: 401)",
    needs: ["state"],
    async run(ctx) {
      const key = `dk_conformance_wrong_${ctx.config.runId}`;
      for (const { label, ...req } of everyOperation(ctx))
        expectStatus(
          await ctx.send({ ...req, auth: { key }, tenant: "none" }),
          401,
          `${label} with an unknown X-Api-Key`,
        );
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
];
