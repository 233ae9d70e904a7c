/** create → list with the client openapi-typescript-codegen generated into ./codegen/ (run by run.ts against the sandbox at BASE_URL). */
import { DeploymentSource, DeploymentsService, OpenAPI } from "./codegen";

const baseUrl = process.env.BASE_URL;
if (!baseUrl) throw new Error("BASE_URL is not set");
OpenAPI.BASE = baseUrl;
OpenAPI.HEADERS = { "X-Api-Key": "generator-compat-codegen" };

const created = await DeploymentsService.createDeployment({
  name: "codegen-client",
  source: DeploymentSource.INTERNAL_TEMPLATE,
  source_config: {},
  source_revision_config: {},
  secrets: [],
});
const listed = await DeploymentsService.listDeployments(10);
if (!listed.resources.some((deployment) => deployment.id === created.id))
  throw new Error("the created deployment is not listed");
console.log(`openapi-typescript-codegen: created ${created.id}, listed ${listed.resources.length}`);
