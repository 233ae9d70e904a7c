/** Operation 6, createDeployment: POST /v2/deployments → 201; per-source rules and availability (400), the deployment, its first revision and tracing project in one transaction (409 on a taken name) (profile choices 1, 5, 9-13) [D-28, D-46 to D-53]. */
import { randomUUID } from "node:crypto";
import type Router from "@koa/router";
import type { DeploymentCreate, SourceConfig, SourceRevisionConfig } from "../../generated/client.js";
import type { Dependencies } from "../dependencies.js";
import { HttpProblem } from "../errors/http-problem.js";
import { presentDeployment } from "../presenters/deployment.js";
import { resolveCodehostSource } from "../rules/codehost-source.js";
import { duplicateDeploymentName } from "../rules/deployment-name.js";
import { imageVersion, isImageReference } from "../rules/image-version.js";
import { normalizeResourceSpec } from "../rules/resource-spec.js";
import { sealSecrets } from "../rules/secrets.js";
import { checkSourceAvailability } from "../rules/source-availability.js";
import { checkSourceRules, type RuleViolation } from "../rules/source-rules.js";
import { UniqueViolation } from "../storage/store.js";
import { prepareOperation, respond } from "./operation-context.js";

export function registerCreateDeployment(router: Router, deps: Dependencies): void {
  router.post("/v2/deployments", async (ctx) => {
    const { principal, body } = await prepareOperation<DeploymentCreate>(ctx, deps, "createDeployment");

    const unavailable = checkSourceAvailability(body.source, deps.config.hosting);
    if (unavailable) throw sourceRuleProblem([unavailable], `source '${body.source}' ${unavailable.detail}`);
    const violations = [...checkSourceRules(body), ...checkFieldValues(body)];
    if (violations.length > 0) throw sourceRuleProblem(violations);

    let commitSha: string | null = null;
    if (body.source === "codehost") {
      const resolution = await resolveCodehostSource(deps.codehost, principal.tenantId, {
        integrationId: body.source_config.integration_id as string,
        repoUrl: body.source_config.repo_url as string,
        repoRef: body.source_revision_config.repo_ref as string,
        buildOnPush: body.source_config.build_on_push,
      });
      if (Array.isArray(resolution)) throw sourceRuleProblem(resolution);
      commitSha = resolution.commitSha;
    }

    const sourceConfig = storedSourceConfig(body.source_config);
    const sourceRevisionConfig: SourceRevisionConfig = {
      repo_ref: body.source_revision_config.repo_ref ?? null,
      graph_config_path: body.source_revision_config.graph_config_path ?? null,
      image_uri: body.source_revision_config.image_uri ?? null,
      source_tarball_path: body.source_revision_config.source_tarball_path ?? null,
      repo_commit_sha: commitSha,
    };
    const containerSource = body.source === "external_container" || body.source === "internal_container";
    const id = randomUUID();
    try {
      const record = await deps.store.createDeployment(
        {
          id,
          tenantId: principal.tenantId,
          name: body.name,
          source: body.source,
          sourceConfig: sourceConfig as Record<string, unknown>,
          sourceRevisionConfig: sourceRevisionConfig as Record<string, unknown>,
          secrets: sealSecrets(deps.secretBox, body.secrets),
          secretReferences: body.secret_references ?? null,
          imageVersion: containerSource ? imageVersion(sourceRevisionConfig.image_uri) : null,
          listenerId: sourceConfig.listener_id ? sourceConfig.listener_id.toLowerCase() : null,
          revisionId: randomUUID(),
          tracingProjectId: randomUUID(),
          readyAfterUs: deps.config.readyAfterMs * 1000,
        },
        deps.nowUs(),
      );
      respond(ctx, deps, 201, presentDeployment(record));
    } catch (error) {
      if (error instanceof UniqueViolation) throw duplicateDeploymentName(body.name);
      throw error;
    }
  });
}

/** Values the schema cannot judge: URLs parsed with a real URL parser, image references. */
function checkFieldValues(body: DeploymentCreate): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const field of ["repo_url", "custom_url"] as const) {
    const value = body.source_config[field];
    if (typeof value === "string" && value !== "" && !isHttpUrl(value)) {
      violations.push({ field: `source_config.${field}`, pointer: `/source_config/${field}`, detail: "must be an absolute http or https URL" });
    }
  }
  const image = body.source_revision_config.image_uri;
  if (typeof image === "string" && image !== "" && !isImageReference(image)) {
    violations.push({ field: "source_revision_config.image_uri", pointer: "/source_revision_config/image_uri", detail: "must be a container image reference (registry/name:tag)" });
  }
  return violations;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** Every field present (null when not given); only the fields of the contract, which Ajv already ensured. */
function storedSourceConfig(config: SourceConfig): SourceConfig {
  return {
    integration_id: config.integration_id ? config.integration_id.toLowerCase() : null,
    repo_url: config.repo_url ?? null,
    build_on_push: config.build_on_push ?? null,
    custom_url: config.custom_url ?? null,
    resource_spec: config.resource_spec ? normalizeResourceSpec(config.resource_spec) : null,
    listener_id: config.listener_id ? config.listener_id.toLowerCase() : null,
    listener_config: config.listener_config ?? null,
    install_command: config.install_command ?? null,
    build_command: config.build_command ?? null,
  };
}

/** 400 naming each field (profile facts: "Source configuration error: '<field>' <detail>"). */
function sourceRuleProblem(violations: RuleViolation[], headline?: string): HttpProblem {
  const first = violations[0] as RuleViolation;
  const detail = `Source configuration error: ${headline ?? `'${first.field}' ${first.detail}`}` +
    (violations.length > 1 ? ` (and ${violations.length - 1} more; see errors)` : "");
  return new HttpProblem("sourceRule", detail, violations.map((v) => ({ pointer: v.pointer, detail: v.detail })));
}
