/** Deployments of a tenant (D-39 to D-53): create under the per-source rules in one transaction with its first revision and tracing project, list with filters and offset pagination. */
import type { Deployment, DeploymentCreate, DeploymentList } from "../../contract/schemas.js";
import type { Principal } from "../auth/authenticate.js";
import type { Dependencies } from "../dependencies.js";
import { type DeploymentQuery, maskSecrets } from "../domain/records.js";
import { UniqueViolation } from "../domain/store-errors.js";
import { HttpProblem } from "../errors/http-problem.js";
import { newId } from "../ids.js";
import { deploymentPageStream, deploymentPageText } from "../presenters/deployment-text.js";
import type { JsonStream } from "../presenters/json-stream.js";
import { JsonText } from "../presenters/json-text.js";
import { recordFieldsOf, withLeftOutFields } from "../presenters/record-fields.js";
import { resolveCodehostSource } from "../rules/codehost-source.js";
import { duplicateDeploymentName } from "../rules/deployment-name.js";
import { imageVersion } from "../rules/image-version.js";
import { checkResourceRelations } from "../rules/resource-spec.js";
import { checkSecretNames } from "../rules/secret-names.js";
import { sealSecrets } from "../rules/secrets.js";
import { checkSourceAvailability } from "../rules/source-availability.js";
import { checkSourceFieldValues } from "../rules/source-field-values.js";
import { checkSourceRules, sourceRuleProblem } from "../rules/source-rules.js";
import { checkStoredSize } from "../rules/stored-size.js";
import { storedSourceConfig, storedSourceRevisionConfig } from "../rules/stored-source-config.js";
import { filteredListGate, isGatedPage } from "./filtered-list-gate.js";
import { OrganizationGate } from "./organization-gate.js";

export class DeploymentService {
  /** One filtered page at a time per organization (D-113, D-283). */
  private readonly filteredPages = filteredListGate();
  /** Heavy pages being sent (D-350): two per organization, 16 waiting, 429 beyond. */
  private readonly heavyPages = new OrganizationGate({ running: 2, waiting: 16, what: "heavy pages" });

  constructor(private readonly deps: Dependencies) {}

  /** Creates a deployment: 422 for inverted resource pairs (D-134), 400 for an unavailable source or a broken source rule (D-46 to D-51), 409 for a taken name (D-37). */
  async create(principal: Principal, body: DeploymentCreate): Promise<JsonText<Deployment>> {
    // Relations of the resource spec (D-134), secret names (D-116) and the stored size (D-282) are schema-like
    // (422), judged before the per-source rules (400).
    const resourceSpec = body.source_config.resource_spec;
    const invalid = [
      ...(resourceSpec ? checkResourceRelations(resourceSpec, "/source_config/resource_spec") : []),
      ...checkSecretNames(body.secrets),
      ...checkStoredSize(body),
    ];
    if (invalid.length > 0)
      throw new HttpProblem(
        "validation",
        `The request body breaks the schema in ${invalid.length === 1 ? "1 place" : `${invalid.length} places`}; see errors.`,
        invalid,
      );
    const unavailable = checkSourceAvailability(body.source, this.deps.config.hosting);
    if (unavailable) throw sourceRuleProblem([unavailable], `source '${body.source}' ${unavailable.detail}`);
    const violations = [...checkSourceRules(body), ...checkSourceFieldValues(body)];
    if (violations.length > 0) throw sourceRuleProblem(violations);

    let commitSha: string | null = null;
    if (body.source === "codehost") {
      const resolution = await resolveCodehostSource(this.deps.codehost, principal.tenantId, {
        integrationId: body.source_config.integration_id as string,
        repoUrl: body.source_config.repo_url as string,
        repoRef: body.source_revision_config.repo_ref as string,
        buildOnPush: body.source_config.build_on_push,
      });
      if (Array.isArray(resolution)) throw sourceRuleProblem(resolution);
      commitSha = resolution.commitSha;
    }

    const sourceConfig = storedSourceConfig(body.source_config);
    const sourceRevisionConfig = storedSourceRevisionConfig(body.source_revision_config, commitSha);
    const deploymentId = newId();
    const secrets = sealSecrets(this.deps.secretBox, body.secrets, {
      organizationId: principal.organizationId,
      tenantId: principal.tenantId,
      deploymentId,
    });
    try {
      // The record is the contract's: the body as validated, what the service decides over it (D-401).
      const { text } = await this.deps.store.createDeployment(
        {
          // An optional field the body leaves out is answered as every other one is (D-482).
          deployment: withLeftOutFields("Deployment", {
            ...recordFieldsOf("Deployment", body),
            source_config: sourceConfig,
            source_revision_config: sourceRevisionConfig,
            secrets: maskSecrets(secrets),
            id: deploymentId,
            tenant_id: principal.tenantId,
            latest_revision_id: newId(),
            image_version: imageVersion(body.source, sourceRevisionConfig.image_uri),
          }),
          secrets,
          tracingProjectId: newId(),
          readyAfterUs: this.deps.config.readyAfterMs * 1000,
        },
        this.deps.nowUs(),
      );
      // The text it stored, as the list answers it: presented and serialized once (D-83, D-401).
      return new JsonText(text);
    } catch (error) {
      if (error instanceof UniqueViolation) throw duplicateDeploymentName(body.name);
      throw error;
    }
  }

  /** One page of the tenant's deployments, newest first (D-08), and the offset of the next page (D-09), assembled from stored texts (D-83). */
  async list(
    principal: Principal,
    query: DeploymentQuery,
  ): Promise<JsonText<DeploymentList> | JsonStream<DeploymentList>> {
    const read = () => this.deps.store.listDeploymentTexts(principal.tenantId, query, this.deps.nowUs());
    const page = isGatedPage(query) ? await this.filteredPages.run(principal.organizationId, read) : await read();
    // The next offset is the request's plus the number returned; past the end, the same offset (D-09).
    const next = query.offset + page.count;
    if ("joined" in page) return new JsonText(deploymentPageText(page.joined, next));
    // A heavy page is sent a slice at a time while it holds one of the organization's heavy-page slots (D-350).
    const release = await this.heavyPages.acquire(principal.organizationId);
    return deploymentPageStream(page.slices, next, release);
  }
}
