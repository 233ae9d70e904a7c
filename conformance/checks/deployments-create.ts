/** Checks of operation 6 (interface-spec: Create a deployment, rules 1-4; D-06, D-28, D-39 to D-45, D-37/D-38, D-48, D-46, D-53, D-54/D-55). */

import { isImageReference } from "../../contract/source-rules.js";
import { ensure, expect4xx, expectStatus, isObject } from "../check-kit/assert.js";
import {
  createDeployment,
  differences,
  firstRepository,
  type Json,
  listDeployments,
  managedReposRequest,
  paths,
} from "../check-kit/helpers.js";
import { perSourceRules, ruleSample } from "../model/body-source-rules.js";
import {
  allSources,
  containerImageTag,
  deploymentBody,
  plainSource,
  providerBody,
  type RepositoryRecord,
  type Source,
  sourcesFor,
} from "../model/data.js";
import { keptFields } from "../model/deployment-model.js";
import type { Check, CheckContext, SendRequest } from "../runner/check.js";
import { bodyAcceptedBy, judgeEach } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { expectProblem, urn } from "./errors.js";

const tags = ["createDeployment", "deployments"];

const requiredFields = ["name", "source", "source_config", "source_revision_config", "secrets"];

/** Sends a create and records what it created even when the check then fails. */
async function tryCreate(ctx: CheckContext, body: Json, noValidate = false) {
  const ex = await ctx.send({
    method: "POST",
    path: paths.deployments,
    json: body,
    operation: "createDeployment",
    noValidate,
  });
  if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
    ctx.created({ kind: "deployment", id: ex.json.id, name: String(body.name), key: "main" });
  return ex;
}

function specInvalidBodies(ctx: CheckContext): { label: string; body: Json }[] {
  const out: { label: string; body: Json }[] = [];
  for (const field of requiredFields) {
    const body = deploymentBody(ctx.name("bad"), plainSource(ctx.config.hosting));
    delete body[field];
    out.push({ label: `without ${field}`, body });
  }
  out.push({
    label: "source outside the enum",
    body: { ...deploymentBody(ctx.name("bad"), plainSource(ctx.config.hosting)), source: "ftp" },
  });
  return out;
}

const hostingLabel = (hosting: "cloud" | "self_hosted") => (hosting === "cloud" ? "cloud-hosted" : "self-hosted");

/**
 * One check per source that the hosting kind must accept. The body is the per-source table's (D-48), which the
 * interface spec does not state (open point 3): at MUST a refused body is no verdict (D-180), an accepted one must
 * carry its source; `sourceBodyAccepted` judges the refusal at SHOULD.
 */
function sourceAccepted(id: string, source: Source, hosting: "cloud" | "self_hosted"): Check {
  return {
    id,
    level: "MUST",
    tags: [...tags, "sources"],
    statement: `Source ${source} is available on a ${hostingLabel(hosting)} service: its create is never a server error, and an accepted one carries source ${source} (a refused body is no verdict: which fields it requires is not stated)`,
    specRef:
      hosting === "cloud"
        ? "interface-spec: 6. Create a deployment, rule 2"
        : "interface-spec: 6. Create a deployment, rule 3",
    needs: source === "codehost" ? ["write", hosting, "integration"] : ["write", hosting],
    async run(ctx) {
      const { exchange, record } = await createDeployment(ctx, { source, label: source.replace(/_/g, "-") });
      if (!ctx.config.stateless)
        ensure(record.source === source, `source is ${JSON.stringify(record.source)}, expected ${source}`, exchange);
    },
  };
}

/** The SHOULD half of `sourceAccepted`: the per-source table's body of the source is accepted (D-48). */
function sourceBodyAccepted(source: Source, hosting: "cloud" | "self_hosted"): Check {
  return {
    id: bodyAcceptedBy[source],
    level: "SHOULD",
    tags: [...tags, "sources", "source-rules"],
    statement: `The ${source} body of the per-source table (its required fields only) is accepted (2xx) on a ${hostingLabel(hosting)} service`,
    specRef: "D-48 (fields per source), D-46 (availability by hosting kind)",
    needs: source === "codehost" ? ["write", hosting, "integration"] : ["write", hosting],
    async run(ctx) {
      await createDeployment(ctx, { source, label: `${source.replace(/_/g, "-")}-body` });
    },
  };
}

const semanticTags = ["semantics"];

/** Deployment bodies of every available source (codehost only with an integration). */
async function everySource(ctx: CheckContext): Promise<Json[]> {
  const out: Json[] = [];
  for (const source of sourcesFor[ctx.config.hosting]) {
    if (source === "codehost" && !ctx.config.integrationId) continue;
    const repo = source === "codehost" ? await firstRepository(ctx) : undefined;
    out.push(deploymentBody(ctx.name(source.replace(/_/g, "-")), source, repo));
  }
  return out;
}

/**
 * SEM-012 and DEP-CREATE-034: each available source's create answer carries the configuration sent, and its listing keeps the
 * create answer's fields: at MUST the ones the interface spec freezes, at SHOULD all but the state fields (D-234).
 */
async function sourcesKeptWhenListed(ctx: CheckContext): Promise<void> {
  // a source whose body (D-48) is refused is no verdict here (D-180); the other sources are still judged
  await judgeEach(ctx, await everySource(ctx), async (body) => {
    const { exchange, record } = await createDeployment(ctx, { body });
    const sent = differences(record, {
      source_config: body.source_config as Json,
      source_revision_config: body.source_revision_config as Json,
    });
    ensure(
      sent.length === 0,
      `${String(body.source)}: the create answer differs from the request: ${sent.join("; ")}`,
      exchange,
    );
    const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
    const diff = listed.resources[0] ? differences(listed.resources[0], keptFields(record, ctx.level)) : ["not listed"];
    ensure(diff.length === 0, `${String(body.source)}: the listed record differs: ${diff.join("; ")}`, listed.exchange);
  });
}

/** D-47: a source-rule refusal names the field in errors[].pointer, with a detail sentence for it (D-16). */
function expectRulePointer(ex: Exchange, pointer: string, what: string): void {
  const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
  ensure(
    errors.some((e) => isObject(e) && e.pointer === pointer && typeof e.detail === "string" && e.detail.trim() !== ""),
    `${what}: errors[] has no item naming ${pointer} with a detail (D-47)`,
    ex,
  );
  // D-47's detail names the field as a dotted path: "Source configuration error: '<field>' <detail>"
  const field = pointer.slice(1).replace(/\//g, ".");
  ensure(
    isObject(ex.json) && String(ex.json.detail).includes(field),
    `${what}: the problem's detail does not name ${field} (D-47)`,
    ex,
  );
}

export const deploymentCreateChecks: Check[] = [
  {
    id: "DEP-CREATE-001",
    level: "MUST",
    tags,
    statement:
      "Creating a deployment with the plain body of the hosting kind is never a server error, and an accepted one is returned with the name and source sent (a refused body is no verdict: which fields a source requires is not stated)",
    specRef: 'interface-spec: 6. Create a deployment ("Response: one Deployment record")',
    needs: ["write", "state"],
    async run(ctx) {
      const body: Json = {
        ...deploymentBody(ctx.name("dep"), plainSource(ctx.config.hosting)),
        secrets: [{ name: "CF_TOKEN", value: "cf-secret-value-1" }],
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      const diff = differences(record, { name: body.name, source: body.source });
      ensure(diff.length === 0, diff.join("; "), exchange);
    },
  },
  {
    id: "DEP-CREATE-002",
    level: "SHOULD",
    tags,
    statement: "Creating a deployment answers 201",
    specRef: "D-06 (create deployment 201)",
    needs: ["write"],
    async run(ctx) {
      const ex = await tryCreate(ctx, deploymentBody(ctx.name("dep"), plainSource(ctx.config.hosting)), true);
      expectStatus(ex, 201, "create deployment");
    },
  },
  sourceAccepted("DEP-CREATE-003", "internal_template", "cloud"),
  sourceAccepted("DEP-CREATE-004", "internal_container", "cloud"),
  sourceAccepted("DEP-CREATE-005", "internal_source", "cloud"),
  sourceAccepted("DEP-CREATE-006", "codehost", "cloud"),
  sourceAccepted("DEP-CREATE-007", "external_container", "self_hosted"),
  {
    id: "DEP-CREATE-008",
    level: "MUST",
    tags: [...tags, "sources"],
    statement: "A source that is not available for the configured hosting kind is rejected with a 4xx",
    specRef: "interface-spec: 6. Create a deployment, rules 2 and 3",
    needs: ["state"],
    async run(ctx) {
      const unavailable = allSources.filter((s) => !sourcesFor[ctx.config.hosting].includes(s));
      for (const source of unavailable) {
        if (source === "codehost" && !ctx.config.integrationId) continue;
        const repo = source === "codehost" ? await firstRepository(ctx) : undefined;
        const ex = await tryCreate(ctx, deploymentBody(ctx.name("unavail"), source, repo));
        expect4xx(ex, `create ${source} deployment on a ${ctx.config.hosting} service`);
      }
    },
  },
  {
    id: "DEP-CREATE-009",
    level: "SHOULD",
    tags: [...tags, "sources"],
    statement: "An unavailable source answers 400 with a problem of type source-rule naming /source in errors[]",
    specRef: "D-46 (a source unavailable there is 400), D-47 (errors[].pointer)",
    needs: ["state"],
    async run(ctx) {
      const source = ctx.config.hosting === "cloud" ? "external_container" : "internal_template";
      const ex = await tryCreate(ctx, deploymentBody(ctx.name("unavail"), source));
      expectStatus(ex, 400, `create ${source} deployment on a ${ctx.config.hosting} service`);
      ensure(
        isObject(ex.json) && ex.json.type === "urn:deployment-service:problem:source-rule",
        "the problem type is not urn:deployment-service:problem:source-rule",
        ex,
      );
      expectRulePointer(ex, "/source", `create ${source} deployment on a ${ctx.config.hosting} service`);
    },
  },
  {
    id: "DEP-CREATE-010",
    level: "MUST",
    tags: [...tags, "rule-4", "listCodehostRepositories"],
    statement:
      "A deployment created from a repository record carries its host_integration_id, url and default_branch as integration_id, repo_url and repo_ref",
    specRef: "interface-spec: 6. Create a deployment, rule 4; Code-host repository record",
    needs: ["write", "state", "integration", "cloud"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const { exchange, record } = await createDeployment(ctx, {
        source: "codehost",
        repository: repo,
        label: "rule4",
      });
      const diff = differences(record, {
        source_config: { integration_id: repo.host_integration_id, repo_url: repo.url },
        source_revision_config: { repo_ref: repo.default_branch },
      });
      ensure(
        diff.length === 0,
        `the deployment does not carry the repository record's fields: ${diff.join("; ")}`,
        exchange,
      );
    },
  },
  {
    id: "DEP-CREATE-011",
    level: "SHOULD",
    tags: [...tags, "side-effects"],
    statement:
      "A new deployment starts AWAITING_DATABASE with latest_revision_id set; a codehost one has a 40-hex repo_commit_sha",
    specRef: "D-53 (side effects of create)",
    needs: ["write", "state"],
    async run(ctx) {
      const source: Source =
        ctx.config.integrationId && ctx.config.hosting === "cloud" ? "codehost" : plainSource(ctx.config.hosting);
      const { exchange, record } = await createDeployment(ctx, { source, label: "fresh" });
      ensure(
        record.status === "AWAITING_DATABASE",
        `status is ${JSON.stringify(record.status)}, expected AWAITING_DATABASE`,
        exchange,
      );
      ensure(typeof record.latest_revision_id === "string", "latest_revision_id is not set", exchange);
      if (source === "codehost") {
        const sha = (record.source_revision_config as Json | undefined)?.repo_commit_sha;
        ensure(
          typeof sha === "string" && /^[0-9a-f]{40}$/.test(sha),
          `repo_commit_sha is ${JSON.stringify(sha)}, expected 40 hex digits`,
          exchange,
        );
      }
    },
  },
  {
    id: "DEP-CREATE-012",
    level: "MUST",
    tags: [...tags, "validation"],
    statement:
      "A body without a required field (name, source, source_config, source_revision_config, secrets), or with source outside its enum, is rejected with a 4xx",
    specRef: "interface-spec: 6. Create a deployment (required fields); Errors (constraints)",
    needs: [],
    async run(ctx) {
      for (const { label, body } of specInvalidBodies(ctx))
        expect4xx(await tryCreate(ctx, body), `create deployment ${label}`);
    },
  },
  {
    id: "DEP-CREATE-013",
    level: "SHOULD",
    tags: [...tags, "validation"],
    statement: "Those schema violations answer 422",
    specRef: "D-16 (422 when a request breaks the schema)",
    needs: [],
    async run(ctx) {
      for (const { label, body } of specInvalidBodies(ctx))
        expectStatus(await tryCreate(ctx, body), 422, `create deployment ${label}`);
    },
  },
  {
    id: "DEP-CREATE-014",
    level: "SHOULD",
    tags: [...tags, "duplicates"],
    statement: "A name already used in the tenant answers 409, a conflict problem detail with its detail sentence",
    specRef: "D-37/D-38 (name unique per tenant, 409), D-16 (problem details), D-66",
    needs: ["write", "state"],
    async run(ctx) {
      const { body } = await createDeployment(ctx, { label: "dup" });
      const again = await tryCreate(ctx, body, true);
      expectStatus(again, 409, "create a deployment with a name already used");
      expectProblem(again, urn("conflict"), "the 409 answer");
    },
  },
  {
    id: "DEP-CREATE-015",
    level: "SHOULD",
    tags: [...tags, "read-only"],
    statement:
      "Read-only fields sent on create (id, tenant_id, status, created_at, updated_at, revision ids, repo_commit_sha) are ignored",
    specRef: 'D-28; interface-spec: Deployment record ("Read-only")',
    needs: ["write", "state"],
    async run(ctx) {
      const forged = {
        id: "00000000-0000-4000-8000-0000000000aa",
        tenant_id: "00000000-0000-4000-8000-0000000000bb",
        status: "READY",
        created_at: "2001-01-01T00:00:00Z",
        updated_at: "2001-01-01T00:00:00Z",
        latest_revision_id: "00000000-0000-4000-8000-0000000000cc",
        active_revision_id: "00000000-0000-4000-8000-0000000000dd",
      };
      const base = deploymentBody(ctx.name("ro"), plainSource(ctx.config.hosting));
      const body = {
        ...base,
        ...forged,
        source_revision_config: { ...(base.source_revision_config as Json), repo_commit_sha: "f".repeat(40) },
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      const honoured = Object.entries(forged)
        .filter(([k, v]) => record[k] === v)
        .map(([k]) => k);
      if ((record.source_revision_config as Json | undefined)?.repo_commit_sha === "f".repeat(40))
        honoured.push("source_revision_config.repo_commit_sha");
      ensure(honoured.length === 0, `read-only fields were taken from the request: ${honoured.join(", ")}`, exchange);
    },
  },
  {
    id: "DEP-CREATE-016",
    level: "SHOULD",
    tags: [...tags, "unknown-fields"],
    statement: "Unknown fields on create are ignored: the request succeeds and they are not returned",
    specRef: "D-28 (unknown request fields are ignored and never stored)",
    needs: ["write", "state"],
    async run(ctx) {
      const base = deploymentBody(ctx.name("unk"), plainSource(ctx.config.hosting));
      const body = {
        ...base,
        cf_unknown: "x",
        source_config: { ...(base.source_config as Json), cf_unknown_inner: 1 },
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      ensure(!("cf_unknown" in record), "the unknown top-level field is echoed", exchange);
      ensure(
        !("cf_unknown_inner" in ((record.source_config as Json | undefined) ?? {})),
        "the unknown source_config field is echoed",
        exchange,
      );
    },
  },
  {
    id: "DEP-CREATE-017",
    level: "SHOULD",
    tags: [...tags, "validation"],
    statement: "A name that breaks ^[a-zA-Z][a-zA-Z0-9-]*$ or is longer than 63 characters answers 422",
    specRef: "D-37/D-38 (deployment name pattern and length)",
    needs: [],
    async run(ctx) {
      for (const name of [
        `${ctx.prefix}under_score`,
        `9${ctx.prefix}digit-first`,
        `${ctx.prefix}${"x".repeat(64)}`,
        "",
      ]) {
        expectStatus(
          await tryCreate(ctx, deploymentBody(name, plainSource(ctx.config.hosting))),
          422,
          `create deployment named ${JSON.stringify(name)}`,
        );
      }
    },
  },
  {
    id: "DEP-CREATE-018",
    level: "SHOULD",
    tags: [...tags, "secrets"],
    statement: "Deployment secret values are returned masked, never as sent; their names are returned as given",
    specRef: "D-54/D-55 (secret values returned masked; names as given)",
    needs: ["write", "state"],
    async run(ctx) {
      const value = `cf-plain-${ctx.config.runId}-secret`;
      const body = {
        ...deploymentBody(ctx.name("sec"), plainSource(ctx.config.hosting)),
        secrets: [{ name: "CF_SECRET", value }],
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      ensure(!JSON.stringify(exchange.json).includes(value), "the secret value is returned in plain text", exchange);
      const names = Array.isArray(record.secrets) ? (record.secrets as Json[]).map((x) => x.name) : [];
      ensure(
        JSON.stringify(names) === JSON.stringify(["CF_SECRET"]),
        `secrets are returned as ${JSON.stringify(names)}, expected one named CF_SECRET`,
        exchange,
      );
    },
  },
  {
    id: "DEP-CREATE-019",
    level: "MUST",
    tags: [...tags, "listDeployments"],
    statement:
      "A created deployment is listed (found by deployment_ids) with the name, source, id, tenant_id and created_at of its create answer",
    specRef: 'interface-spec: What the service does 3 ("Deployments can be created and listed")',
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "listed" });
      const { exchange, resources } = await listDeployments(ctx, { deployment_ids: String(record.id) });
      ensure(
        resources.length === 1,
        `listing deployment_ids=${String(record.id)} returned ${resources.length} records`,
        exchange,
      );
      const diff = differences(resources[0]!, keptFields(record, ctx.level));
      ensure(diff.length === 0, `the listed record differs: ${diff.join("; ")}`, exchange);
    },
  },
  {
    id: "DEP-CREATE-020",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement: "A codehost body without repo_ref answers 400 naming the field (source-specific rule)",
    specRef: "D-48 (per-source rules, 400 naming the field)",
    needs: ["cloud", "integration", "state"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const body = deploymentBody(ctx.name("norefs"), "codehost", repo);
      body.source_revision_config = { graph_config_path: "graph.json" };
      const ex = await tryCreate(ctx, body);
      expectStatus(ex, 400, "create codehost deployment without repo_ref");
      ensure(ex.response.body.includes("repo_ref"), "the problem does not name repo_ref", ex);
      expectRulePointer(ex, "/source_revision_config/repo_ref", "create codehost deployment without repo_ref");
    },
  },
  {
    id: "DEP-CREATE-021",
    level: "SHOULD",
    tags: [...tags, "image_version"],
    statement: "A container deployment gets image_version equal to the tag of image_uri; others get null",
    specRef: "D-39 to D-45 (image_version is the tag of image_uri for container sources)",
    needs: ["write", "state"],
    async run(ctx) {
      const source: Source = ctx.config.hosting === "cloud" ? "internal_container" : "external_container";
      const { exchange, record } = await createDeployment(ctx, { source, label: "img" });
      ensure(
        record.image_version === containerImageTag,
        `image_version is ${JSON.stringify(record.image_version)}, expected "${containerImageTag}"`,
        exchange,
      );
    },
  },
  {
    id: "DEP-CREATE-022",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement: "A codehost deployment of an integration unknown in the tenant is rejected with a 4xx",
    specRef: "D-48 (the integration must exist in the caller's tenant)",
    needs: ["cloud", "integration", "state"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const ex = await tryCreate(
        ctx,
        deploymentBody(ctx.name("noint"), "codehost", {
          ...repo,
          host_integration_id: "00000000-0000-4000-8000-0000000000cf",
        }),
      );
      expect4xx(ex, "create codehost deployment of an unknown integration");
    },
  },
  {
    id: "DEP-CREATE-023",
    level: "SHOULD",
    tags: [...tags, "side-effects", "status"],
    statement:
      "A new deployment becomes READY with active_revision_id = latest_revision_id when provisioning ends (polled up to --settle-ms, the target's provisioning delay), and its updated_at moves past the create answer's",
    specRef:
      "D-53 (status AWAITING_DATABASE, then READY with active_revision_id set), D-453 (updated_at moves with a status transition)",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "ready" });
      // how long provisioning takes is the target's: --settle-ms (D-181)
      const deadline = Date.now() + ctx.config.settleMs;
      for (;;) {
        const { exchange, resources } = await listDeployments(ctx, { deployment_ids: String(record.id) });
        const now = resources[0];
        ensure(now, `deployment ${String(record.id)} is no longer listed`, exchange);
        if (now.status === "READY") {
          ensure(
            now.active_revision_id === record.latest_revision_id,
            `READY with active_revision_id ${JSON.stringify(now.active_revision_id)}, expected the latest revision ${JSON.stringify(record.latest_revision_id)}`,
            exchange,
          );
          // a deployment created READY at once made no transition to stamp
          const moved =
            record.status === "READY" ||
            (now.updated_at !== record.updated_at &&
              Date.parse(String(now.updated_at)) >= Date.parse(String(record.updated_at)));
          ensure(
            moved,
            `READY after AWAITING_DATABASE, but updated_at is ${JSON.stringify(now.updated_at)}, not later than the create answer's ${JSON.stringify(record.updated_at)}`,
            exchange,
          );
          return;
        }
        ensure(
          now.status === "AWAITING_DATABASE",
          `status went from AWAITING_DATABASE to ${JSON.stringify(now.status)}`,
          exchange,
        );
        ensure(
          Date.now() < deadline,
          `still AWAITING_DATABASE after --settle-ms ${ctx.config.settleMs} (raise it if the target provisions slower)`,
          exchange,
        );
        await new Promise((r) => setTimeout(r, 250));
      }
    },
  },
  {
    id: "DEP-CREATE-024",
    level: "SHOULD",
    tags: [...tags, "source-rules", "rule-4"],
    statement: "A codehost repo_ref that is no branch or tag of the repository is refused with 400 naming repo_ref",
    specRef: "D-49 (repo_ref must be a branch of the repository or an existing tag ref)",
    needs: ["write", "integration", "cloud", "server"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const body = deploymentBody(ctx.name("noref"), "codehost", repo);
      (body.source_revision_config as Json).repo_ref = `${ctx.prefix}no-such-branch`;
      const ex = await tryCreate(ctx, body, true);
      expectStatus(ex, 400, "create a codehost deployment whose repo_ref is no ref of the repository");
      ensure(ex.response.body.includes("repo_ref"), "the problem does not name repo_ref", ex);
      expectRulePointer(ex, "/source_revision_config/repo_ref", "a repo_ref that is no ref of the repository");
    },
  },
  {
    id: "DEP-CREATE-025",
    level: "SHOULD",
    tags: [...tags, "source-rules", "rule-4"],
    statement:
      "A codehost repo_url of another integration of the tenant (the managed one) is refused with 400 naming repo_url",
    specRef: "D-49 (repo_url must be the url of one of the named integration's repositories)",
    needs: ["write", "integration", "managedIntegration", "cloud", "server"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const managed = await ctx.send(managedReposRequest(ctx, ctx.config.managedIntegrationId!));
      const plain = await ctx.send({
        method: "GET",
        path: paths.repos(ctx.config.integrationId!),
        operation: "listCodehostRepositories",
      });
      const own = new Set((Array.isArray(plain.json) ? (plain.json as Json[]) : []).map((r) => r.url));
      const foreign = (Array.isArray(managed.json) ? (managed.json as Json[]) : []).find(
        (r) => typeof r.url === "string" && !own.has(r.url),
      );
      if (!foreign) ctx.skip("the managed integration lists no repository of its own url");
      const body = deploymentBody(ctx.name("otherurl"), "codehost", repo);
      (body.source_config as Json).repo_url = foreign!.url;
      const ex = await tryCreate(ctx, body, true);
      expectStatus(ex, 400, "create a codehost deployment with the repo_url of another integration");
      ensure(ex.response.body.includes("repo_url"), "the problem does not name repo_url", ex);
      expectRulePointer(ex, "/source_config/repo_url", "the repo_url of another integration");
    },
  },
  {
    id: "DEP-CREATE-026",
    level: "SHOULD",
    tags: [...tags, "source-rules", "rule-4"],
    statement:
      "build_on_push true with a tag ref is refused with 400 naming build_on_push (the same body with false is accepted: a verdict when --codehost-tag names the tag)",
    specRef: "D-50, D-51 (a tag is refs/tags/...; build_on_push with a tag is 400)",
    needs: ["write", "integration", "cloud", "server"],
    async run(ctx) {
      const listed = await ctx.send({
        method: "GET",
        path: paths.repos(ctx.config.integrationId!),
        operation: "listCodehostRepositories",
      });
      const repos = (Array.isArray(listed.json) ? listed.json : []) as RepositoryRecord[];
      const tag = ctx.config.codehostTag ?? "refs/tags/v1.0.0";
      const withTag = (repo: RepositoryRecord, name: string, buildOnPush: boolean) => {
        const body = deploymentBody(ctx.name(name), "codehost", repo);
        (body.source_config as Json).build_on_push = buildOnPush;
        (body.source_revision_config as Json).repo_ref = tag;
        return body;
      };
      // the interface lists no refs: the first repository that takes the tag with build_on_push false has it
      let tagged: RepositoryRecord | undefined;
      for (const repo of repos.slice(0, 10)) {
        const control = await tryCreate(ctx, withTag(repo, "tag", false), true);
        if (control.response.status < 300) {
          tagged = repo;
          break;
        }
      }
      // a tag the integration is said to hold must be taken with build_on_push false (D-50, D-51)
      ensure(
        tagged !== undefined || ctx.config.codehostTag === undefined,
        `no repository of the integration takes the tag ${tag} (--codehost-tag) with build_on_push false`,
        listed,
      );
      if (!tagged) ctx.skip(`no repository of the integration takes the tag ${tag}`);
      const ex = await tryCreate(ctx, withTag(tagged!, "tagpush", true), true);
      expectStatus(ex, 400, "create a codehost deployment with build_on_push true and a tag ref");
      ensure(ex.response.body.includes("build_on_push"), "the problem does not name build_on_push", ex);
      expectRulePointer(ex, "/source_config/build_on_push", "build_on_push true with a tag ref");
    },
  },
  {
    id: "DEP-CREATE-027",
    level: "SHOULD",
    tags: [...tags, "image_version"],
    statement:
      "image_version is the tag of the last path segment: a registry port is no tag, a digest is no tag, a tag before a digest is",
    specRef: "D-42 (image_version is the part after the last ':' of the last path segment)",
    needs: ["write", "state"],
    async run(ctx) {
      const source: Source = ctx.config.hosting === "cloud" ? "internal_container" : "external_container";
      const digest = `sha256:${"0123456789abcdef".repeat(4)}`;
      const cases: { image: string; want: string | null }[] = [
        { image: "registry.example.com:5000/conformance/app:2.0.1", want: "2.0.1" },
        { image: "registry.example.com:5000/conformance/app", want: null },
        { image: `registry.example.com:5000/conformance/app:2.0.1@${digest}`, want: "2.0.1" },
      ];
      for (const c of cases) {
        const body = deploymentBody(ctx.name("imgref"), source);
        (body.source_revision_config as Json).image_uri = c.image;
        const ex = await tryCreate(ctx, body);
        expectStatus(ex, 201, `create a ${source} deployment of ${c.image}`);
        const got = (ex.json as Json).image_version;
        ensure(
          got === c.want,
          `image_uri ${c.image} gave image_version ${JSON.stringify(got)}, expected ${JSON.stringify(c.want)}`,
          ex,
        );
      }
    },
  },
  {
    id: "DEP-CREATE-028",
    level: "SHOULD",
    tags: [...tags, "limits"],
    statement: "A valid body of exactly 1 MiB (1,048,576 bytes, JSON whitespace after it) is accepted, not 413",
    specRef: "D-30 (body at most 1 MiB; above it 413)",
    needs: ["write", "state"],
    async run(ctx) {
      const body = deploymentBody(ctx.name("mib"), plainSource(ctx.config.hosting));
      const text = JSON.stringify(body);
      const raw = text + " ".repeat(1024 * 1024 - Buffer.byteLength(text));
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        raw,
        headers: { "Content-Type": "application/json" },
        operation: "createDeployment",
      });
      if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
        ctx.created({ kind: "deployment", id: ex.json.id, name: String(body.name), key: "main" });
      ensure(ex.response.status !== 413, "a body of exactly 1,048,576 bytes answered 413", ex);
      expectStatus(ex, 201, "create a deployment with a body of exactly 1 MiB");
    },
  },
  sourceBodyAccepted("internal_template", "cloud"),
  sourceBodyAccepted("internal_container", "cloud"),
  sourceBodyAccepted("internal_source", "cloud"),
  sourceBodyAccepted("codehost", "cloud"),
  sourceBodyAccepted("external_container", "self_hosted"),
  {
    id: "SEM-006",
    level: "MUST",
    tags: [
      ...semanticTags,
      "rule-4",
      "createDeployment",
      "listCodehostRepositories",
      "listManagedCodehostRepositories",
    ],
    statement:
      "A deployment created from any repository record of operation 3 or 4 carries that record's host_integration_id, url and default_branch, on create and in the list",
    specRef: "interface-spec: 6. Create a deployment, rule 4; Code-host repository record",
    needs: ["write", "state", "integration", "cloud"],
    async run(ctx) {
      const sources: SendRequest[] = [{ method: "GET", path: paths.repos(ctx.config.integrationId!) }];
      if (ctx.config.managedIntegrationId)
        sources.push({ ...managedReposRequest(ctx, ctx.config.managedIntegrationId), operation: undefined });
      const repos: Json[] = [];
      for (const request of sources) {
        const ex = await ctx.send(request);
        ensure(Array.isArray(ex.json), `${request.method} ${request.path}: expected a JSON array`, ex);
        repos.push(...(ex.json as Json[]));
      }
      // a refused body (graph_config_path and the rest of the codehost row are D-48) is no verdict for that repository
      await judgeEach(ctx, repos, async (repo) => {
        const want = {
          source_config: { integration_id: repo.host_integration_id, repo_url: repo.url },
          source_revision_config: { repo_ref: repo.default_branch },
        };
        const body = deploymentBody(ctx.name("rule4"), "codehost", repo as never);
        const { exchange, record } = await createDeployment(ctx, { body });
        const diff = differences(record, want);
        ensure(diff.length === 0, `created from ${String(repo.url)}: ${diff.join("; ")}`, exchange);
        const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
        const ldiff = listed.resources[0] ? differences(listed.resources[0], want) : ["not listed"];
        ensure(ldiff.length === 0, `listed, created from ${String(repo.url)}: ${ldiff.join("; ")}`, listed.exchange);
      });
    },
  },
  {
    id: "SEM-009",
    level: "SHOULD",
    tags: [...semanticTags, "secrets", "createDeployment", "listDeployments"],
    statement: "Deployment secret values are masked as ******** in every answer: the create answer and the list",
    specRef: "D-55 (value returned masked as ********)",
    needs: ["write", "state"],
    async run(ctx) {
      const value = `cf-${ctx.config.runId}-sv-${Math.random().toString(36).slice(2, 8)}`;
      const body = {
        ...deploymentBody(ctx.name("mask"), plainSource(ctx.config.hosting)),
        secrets: [{ name: "CF_MASKED", value }],
      };
      const { exchange, record } = await createDeployment(ctx, { body });
      const listed = await listDeployments(ctx, { deployment_ids: String(record.id) });
      for (const [where, ex, r] of [
        ["create", exchange, record],
        ["list", listed.exchange, listed.resources[0]],
      ] as const) {
        ensure(!JSON.stringify(ex.json).includes(value), `the ${where} answer carries the secret value in clear`, ex);
        const values = Array.isArray(r?.secrets) ? (r.secrets as Json[]).map((s) => s.value) : [];
        ensure(
          JSON.stringify(values) === '["********"]',
          `the ${where} answer's secret values are ${JSON.stringify(values)}`,
          ex,
        );
      }
    },
  },
  {
    id: "SEM-012",
    level: "MUST",
    tags: [...semanticTags, "createDeployment", "listDeployments"],
    statement:
      "For every available source, the create answer carries the configuration sent and the listed record keeps its name, source, id, tenant_id and created_at",
    specRef:
      'interface-spec: 6. Create a deployment ("Response: one Deployment record"; source_config "Same fields as in the response"); 5. List deployments',
    needs: ["write", "state"],
    run: sourcesKeptWhenListed,
  },
  {
    id: "DEP-CREATE-034",
    level: "SHOULD",
    tags: [...semanticTags, "createDeployment", "listDeployments"],
    statement:
      "For every available source, the listed record equals the create answer in every field but status, updated_at and active_revision_id",
    specRef: "D-234 (which fields stay after create), D-12 (the state fields)",
    needs: ["write", "state"],
    run: sourcesKeptWhenListed,
  },
  {
    id: "SEM-013",
    level: "MUST",
    tags: [...semanticTags, "createDeployment", "secret_references"],
    statement:
      "secret_references sent for a source other than external_container are refused or at least never carried by the record (create and list)",
    specRef: 'interface-spec: Deployment record, secret_references "Only applicable for source external_container"',
    needs: ["write", "state"],
    async run(ctx) {
      const refs = [{ name: "CF_REF", secret_name: "cf-secret", secret_key: "token" }];
      for (const body of await everySource(ctx)) {
        if (body.source === "external_container") continue;
        const ex = await tryCreate(ctx, { ...body, secret_references: refs }, true);
        if (ex.response.status >= 400) continue;
        const carried = (r: unknown) =>
          isObject(r) && Array.isArray(r.secret_references) && r.secret_references.length > 0;
        ensure(!carried(ex.json), `a ${String(body.source)} deployment carries secret_references`, ex);
        const listed = await listDeployments(ctx, { deployment_ids: String((ex.json as Json).id) });
        ensure(
          !carried(listed.resources[0]),
          `a listed ${String(body.source)} deployment carries secret_references`,
          listed.exchange,
        );
      }
    },
  },
  {
    id: "SEM-014",
    level: "SHOULD",
    tags: [...semanticTags, "createDeployment", "source-rules"],
    statement:
      "Per-source rules: a required field absent (or blank) and a forbidden field set each answer 400 naming the field, for every available source",
    specRef: "D-48 (required / allowed / forbidden fields per source), D-47",
    needs: ["state"],
    async run(ctx) {
      for (const source of sourcesFor[ctx.config.hosting]) {
        if (source === "codehost" && !ctx.config.integrationId) continue;
        const repo = source === "codehost" ? await firstRepository(ctx) : undefined;
        for (const [path, rules] of Object.entries(perSourceRules)) {
          const rule = rules[source];
          if (rule === "O") continue;
          const variants: { label: string; value: unknown }[] =
            rule === "F" ? [{ label: "set", value: ruleSample(path) }] : [{ label: "absent", value: undefined }];
          if (rule === "R" && typeof ruleSample(path) === "string" && !path.endsWith("_id"))
            variants.push({ label: "blank", value: "  " });
          for (const { label, value } of variants) {
            const body = deploymentBody(ctx.name("rule"), source, repo);
            const [top, leaf] = path.includes(".") ? path.split(".") : [undefined, path];
            // every body of deploymentBody() carries both config objects
            const target = top ? (body[top] as Json) : body;
            if (value === undefined) delete (target as Json)[leaf!];
            else (target as Json)[leaf!] = value;
            const ex = await tryCreate(ctx, body, true);
            expectStatus(ex, 400, `${source} with ${path} ${label}`);
            ensure(
              ex.response.body.includes(leaf!),
              `${source} with ${path} ${label}: the problem does not name ${leaf}`,
              ex,
            );
            expectRulePointer(ex, `/${path.replace(".", "/")}`, `${source} with ${path} ${label}`);
          }
        }
      }
    },
  },
  {
    id: "SEM-015",
    level: "SHOULD",
    tags: [...semanticTags, "createDeployment", "duplicates", "race"],
    statement:
      "Eight concurrent creates of one name: exactly one succeeds, the others answer 409, and one deployment of that name is listed, on a page of one too",
    specRef: "D-37 (names unique per tenant), D-22 (409)",
    needs: ["write", "state"],
    async run(ctx) {
      const name = ctx.name("race");
      const body = deploymentBody(name, plainSource(ctx.config.hosting));
      const answers = await Promise.all(Array.from({ length: 8 }, () => tryCreate(ctx, body, true)));
      const ok = answers.filter((a) => a.response.status >= 200 && a.response.status < 300);
      ensure(ok.length === 1, `${ok.length} of 8 concurrent creates of ${name} succeeded`, ok[1] ?? answers[0]);
      for (const a of answers) if (a !== ok[0]) expectStatus(a, 409, `a concurrent duplicate create of ${name}`);
      const page = await listDeployments(ctx, { name_contains: name, limit: 100 });
      const n = page.resources.filter((r) => r.name === name).length;
      ensure(n === 1, `${n} deployments named ${name} are listed`, page.exchange);
      // a refused create leaves nothing a page counts: a page of one still finds the one deployment of that name
      const first = await listDeployments(ctx, { name_contains: name, limit: 1 });
      ensure(
        first.resources.length === 1 && first.resources[0]!.name === name,
        `a page of one holds ${first.resources.length} deployments named ${name} after seven refused creates`,
        first.exchange,
      );
    },
  },
  {
    id: "SEM-016",
    level: "SHOULD",
    tags: [...semanticTags, "createDeployment", "validation", "source-rules"],
    statement: "A body breaking the schema and a per-source rule at once answers 422 (schema errors are checked first)",
    specRef: "D-47 (schema errors are checked first), D-25",
    needs: ["server"],
    async run(ctx) {
      const unavailable: Source = ctx.config.hosting === "cloud" ? "external_container" : "internal_template";
      const cases: { label: string; body: Json }[] = [
        {
          label: `an unavailable source with a bad name`,
          body: { ...deploymentBody(`${ctx.prefix}bad_name`, unavailable) },
        },
        {
          label: "a forbidden field with secrets not an array",
          body: {
            ...deploymentBody(ctx.name("order"), plainSource(ctx.config.hosting)),
            secrets: "none",
            source_config: {
              custom_url: ctx.config.hosting === "cloud" ? "https://app.example.com" : null,
              install_command: "npm ci",
            },
          },
        },
      ];
      for (const { label, body } of cases) expectStatus(await tryCreate(ctx, body, true), 422, label);
    },
  },
  {
    id: "SEM-017",
    level: "MUST",
    tags: [...semanticTags, "read-only", "createDeployment", "createOAuthProvider"],
    statement:
      "Response-only and read-only fields sent on create are refused or not taken over: a deployment's id, tenant_id, timestamps, status, revision ids and repo_commit_sha; a provider's mcp_server_url and is_dynamic_client",
    specRef:
      'interface-spec: Deployment (response record) ("Read-only"); SourceRevisionConfig (repo_commit_sha "Present in responses only"); OAuth provider response record (mcp_server_url, is_dynamic_client "only in responses")',
    needs: ["write", "state"],
    async run(ctx) {
      const forged: Json = {
        id: "00000000-0000-4000-8000-0000000000aa",
        tenant_id: "00000000-0000-4000-8000-0000000000bb",
        created_at: "2001-01-01T00:00:00Z",
        updated_at: "2001-01-01T00:00:00Z",
        status: "AWAITING_DELETE",
        latest_revision_id: "00000000-0000-4000-8000-0000000000cc",
        active_revision_id: "00000000-0000-4000-8000-0000000000dd",
      };
      const base = deploymentBody(ctx.name("ro"), plainSource(ctx.config.hosting));
      const sha = "e".repeat(40);
      const ex = await tryCreate(
        ctx,
        {
          ...base,
          ...forged,
          source_revision_config: { ...(base.source_revision_config as Json), repo_commit_sha: sha },
        },
        true,
      );
      if (ex.response.status < 300) {
        const record = ex.json as Json;
        const taken = Object.keys(forged).filter((k) => record[k] === forged[k]);
        if ((record.source_revision_config as Json | undefined)?.repo_commit_sha === sha) taken.push("repo_commit_sha");
        ensure(taken.length === 0, `read-only fields were taken from the request: ${taken.join(", ")}`, ex);
      }
      const prov = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: {
          ...providerBody(ctx.name("ro")),
          mcp_server_url: "https://mcp.example.com/cf",
          is_dynamic_client: true,
        },
        noValidate: true,
      });
      if (prov.response.status < 300 && isObject(prov.json)) {
        ctx.created({
          kind: "oauth_provider",
          id: String(prov.json.id),
          name: String(prov.json.provider_id),
          key: "main",
        });
        const taken = [
          prov.json.mcp_server_url === "https://mcp.example.com/cf" && "mcp_server_url",
          prov.json.is_dynamic_client === true && "is_dynamic_client",
        ].filter(Boolean);
        ensure(taken.length === 0, `response-only fields were taken from the request: ${taken.join(", ")}`, prov);
      }
    },
  },
  {
    id: "DEP-CREATE-035",
    level: "SHOULD",
    tags: [...tags, "source-rules", "rule-4"],
    statement:
      "A codehost integration_id that names no integration of the tenant is refused with 400 naming /source_config/integration_id with a detail",
    specRef: "D-49 (integration_id must name an integration of the caller's tenant, else 400 naming it), D-47",
    needs: ["write", "integration", "cloud", "server"],
    async run(ctx) {
      const repo = await firstRepository(ctx);
      const unknown = "00000000-0000-4000-8000-0000000000cf";
      if (unknown === repo.host_integration_id.toLowerCase()) ctx.skip(`the configured integration is ${unknown}`);
      const body = deploymentBody(ctx.name("noint"), "codehost", { ...repo, host_integration_id: unknown });
      const ex = await tryCreate(ctx, body, true);
      expectStatus(ex, 400, "create a codehost deployment of an integration unknown in the tenant");
      expectRulePointer(ex, "/source_config/integration_id", "an integration_id of no integration of the tenant");
    },
  },
  {
    id: "DEP-CREATE-036",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement:
      "A repo_url or custom_url that is no absolute http(s) URL and an image_uri that is no container image reference are each refused with 400 naming the field with a detail",
    specRef:
      "D-47 (a value the schema cannot judge is a 400 naming its field), D-42 and D-200 (the image reference grammar)",
    needs: ["write", "server"],
    async run(ctx) {
      const available = new Set(sourcesFor[ctx.config.hosting]);
      const repo = available.has("codehost") && ctx.config.integrationId ? await firstRepository(ctx) : undefined;
      const notUrls = ["ftp://codehost.example/conformance/app", "codehost.example/conformance/app", "not a url"];
      const notImages = ["registry.example.com/Conformance/App:1.0", "registry.example.com/app:", "not an image"];
      for (const bad of notImages)
        if (isImageReference(bad)) throw new Error(`${bad} is an image reference of the grammar (D-200)`);
      const cases: { source: Source; field: string[]; values: string[] }[] = [
        ...(repo ? [{ source: "codehost" as Source, field: ["source_config", "repo_url"], values: notUrls }] : []),
        { source: "external_container", field: ["source_config", "custom_url"], values: notUrls },
        { source: "external_container", field: ["source_revision_config", "image_uri"], values: notImages },
        { source: "internal_container", field: ["source_revision_config", "image_uri"], values: notImages },
      ];
      const judged = cases.filter((c) => available.has(c.source));
      if (judged.length === 0) ctx.skip("no source of this hosting kind takes a URL or an image reference");
      for (const c of judged)
        for (const value of c.values) {
          const body = deploymentBody(ctx.name("badval"), c.source, c.source === "codehost" ? repo : undefined);
          (body[c.field[0]!] as Json)[c.field[1]!] = value;
          const what = `create ${c.source} with ${c.field.join(".")} ${JSON.stringify(value)}`;
          const ex = await tryCreate(ctx, body, true);
          expectStatus(ex, 400, what);
          expectRulePointer(ex, `/${c.field.join("/")}`, what);
        }
    },
  },
  {
    id: "DEP-CREATE-037",
    level: "SHOULD",
    tags: [...tags, "resource-spec"],
    statement:
      "Every cpu field of a resource spec comes back rounded to one decimal, and a cpu limit left unset comes back as twice its (rounded) request, at most 128; an upper field sent as null does not break a relation",
    specRef:
      "D-04 (cpu in cores, rounded to one decimal; an unset limit defaults to twice the request), D-133 (at most 128), D-134 and D-68 (a null upper field is unset)",
    needs: ["write", "self_hosted"],
    async run(ctx) {
      // No value sits on a rounding half, and twice the request rounds the same before or after its own rounding.
      const sent = {
        cpu: 0.42,
        queue_cpu: 1.26,
        queue_cpu_limit: 3.04,
        orchestrator_cpu: 1.5,
        orchestrator_cpu_limit: 1.54,
        executor_cpu: 2,
        cache_cpu: 0.11,
        db_cpu: 100,
        // an upper field sent as null is unset (D-68): no relation of D-134 applies to it
        min_scale: 2,
        max_scale: null,
        memory_mb: 512,
        memory_limit_mb: null,
      };
      const want: Record<string, number> = {
        cpu: 0.4,
        cpu_limit: 0.8,
        queue_cpu: 1.3,
        queue_cpu_limit: 3,
        orchestrator_cpu: 1.5,
        orchestrator_cpu_limit: 1.5,
        executor_cpu: 2,
        executor_cpu_limit: 4,
        cache_cpu: 0.1,
        cache_cpu_limit: 0.2,
        db_cpu: 100,
        db_cpu_limit: 128,
      };
      const body = deploymentBody(ctx.name("cpu"), "external_container");
      (body.source_config as Json).resource_spec = sent;
      const ex = await tryCreate(ctx, body);
      expectStatus(ex, 201, "create external_container with fractional cpu values");
      const config = isObject(ex.json) && isObject(ex.json.source_config) ? ex.json.source_config : {};
      const spec = isObject(config.resource_spec) ? config.resource_spec : {};
      const wrong = Object.entries(want).filter(
        ([field, value]) => typeof spec[field] !== "number" || Math.abs((spec[field] as number) - value) > 1e-9,
      );
      ensure(
        wrong.length === 0,
        `the resource spec ${JSON.stringify(sent)} came back with ${wrong
          .map(([field, value]) => `${field} ${JSON.stringify(spec[field])} (want ${value})`)
          .join(", ")}`,
        ex,
      );
    },
  },
  {
    id: "DEP-CREATE-038",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement: "A custom_url with the plain http scheme is accepted and comes back as sent",
    specRef: "D-451 (repo_url and custom_url: absolute http or https URLs), D-47",
    needs: ["write", "self_hosted"],
    async run(ctx) {
      const url = "http://app.example.com:8080/conformance";
      const body = deploymentBody(ctx.name("http"), "external_container");
      (body.source_config as Json).custom_url = url;
      const ex = await tryCreate(ctx, body);
      expectStatus(ex, 201, `create external_container with custom_url ${url}`);
      const config = isObject(ex.json) && isObject(ex.json.source_config) ? ex.json.source_config : {};
      ensure(config.custom_url === url, `custom_url came back as ${JSON.stringify(config.custom_url)}`, ex);
    },
  },
  {
    id: "DEP-CREATE-039",
    level: "SHOULD",
    tags: [...tags, "side-effects"],
    statement:
      "A deployment of a source other than codehost answers source_revision_config.repo_commit_sha null (absent means null): only a repository's ref resolves to a commit",
    specRef: "D-52 (repo_commit_sha: the commit repo_ref resolves to for codehost, null for every other source)",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await createDeployment(ctx, { label: "nosha" });
      const sha = (record.source_revision_config as Json | null | undefined)?.repo_commit_sha;
      ensure(
        sha === undefined || sha === null,
        `a ${String(record.source)} deployment answers repo_commit_sha ${JSON.stringify(sha)}, expected null`,
        exchange,
      );
    },
  },
];
