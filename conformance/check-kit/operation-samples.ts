/**
 * One valid request per operation of the contract, keyed by operationId: the operation-wide checks (auth,
 * headers), the weak-run warnings and the registry test iterate the contract's operationList and take each
 * operation's sample from here. The `satisfies Record<OperationId, …>` makes the compiler refuse a contract
 * with an operation that has no sample (D-210).
 */
import { type ContractOperation, type OperationId, operationList } from "../../contract/index.js";
import { deploymentBody, plainSource, providerBody } from "../model/data.js";
import type { CheckContext, CreatedResource, SendRequest } from "../runner/check.js";
import { routeOf } from "../target/operation-paths.js";

/** The run configuration that names an integration the target knows. */
type IntegrationFlag = "integrationId" | "managedIntegrationId";

/** An integration id no target knows: a request to it still carries a well-formed path parameter. */
const unknownIntegration = "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";

/** What the suite knows of one operation beyond the contract. */
interface OperationSample {
  /** How reports name the request ("list deployments"). */
  label: string;
  /** The id prefix of the operation's own area of checks (conformance/checks/<area>.ts), e.g. DEP-LIST. */
  area: string;
  /** The run configuration naming the integration the operation reads; without it the sample uses an unknown one. */
  integration?: IntegrationFlag;
  /** A valid body, for an operation that takes one. */
  body?: (ctx: CheckContext) => Record<string, unknown>;
  /** What a 2xx answer to the sample created, and the name it was created under, for the run's report. */
  creates?: { kind: CreatedResource["kind"]; name: (body: Record<string, unknown>) => string };
}

const operationSamples = {
  createOAuthProvider: {
    label: "create OAuth provider",
    area: "PROV-CREATE",
    body: (ctx) => providerBody(ctx.name("op")),
    creates: { kind: "oauth_provider", name: (body) => String(body.provider_id) },
  },
  listOAuthProviders: { label: "list OAuth providers", area: "PROV-LIST" },
  listCodehostRepositories: { label: "list repositories", area: "REPO-LIST", integration: "integrationId" },
  listManagedCodehostRepositories: {
    label: "list managed repositories",
    area: "REPO-LIST",
    integration: "managedIntegrationId",
  },
  listDeployments: { label: "list deployments", area: "DEP-LIST" },
  createDeployment: {
    label: "create deployment",
    area: "DEP-CREATE",
    body: (ctx) => deploymentBody(ctx.name("op"), plainSource(ctx.config.hosting)),
    creates: { kind: "deployment", name: (body) => String(body.name) },
  },
} satisfies Record<OperationId, OperationSample>;

/** Every operation of the contract with its sample, in the contract's order. */
export const sampledOperations: readonly { operation: ContractOperation; sample: OperationSample }[] =
  operationList.map((operation) => ({ operation, sample: operationSamples[operation.id] }));

/** A sample request ready to send: the contract's method and path, the sample's integration and body. */
export interface SampleRequest extends SendRequest {
  label: string;
  operation: OperationId;
  json?: Record<string, unknown>;
}

/**
 * The sample request of an operation. `integration` "configured" leaves out (undefined) an operation whose
 * integration the run was not given; "any" sends it to another known integration or, failing that, an unknown one.
 */
export function sampleRequest(ctx: CheckContext, operation: ContractOperation, integration: "any"): SampleRequest;
export function sampleRequest(
  ctx: CheckContext,
  operation: ContractOperation,
  integration: "configured",
): SampleRequest | undefined;
export function sampleRequest(
  ctx: CheckContext,
  operation: ContractOperation,
  integration: "configured" | "any",
): SampleRequest | undefined {
  const sample: OperationSample = operationSamples[operation.id];
  const configured = sample.integration && ctx.config[sample.integration];
  if (sample.integration && !configured && integration === "configured") return undefined;
  const route = routeOf(ctx.config, operation.id);
  const path = route.path.replace("{integration_id}", configured ?? ctx.config.integrationId ?? unknownIntegration);
  if (path.includes("{")) throw new Error(`the sample of ${operation.id} does not fill the path ${route.path}`);
  return {
    label: sample.label,
    method: route.method,
    path,
    operation: operation.id,
    ...(sample.body ? { json: sample.body(ctx) } : {}),
  };
}
