/** create → list with the client @hey-api/openapi-ts generated into ./hey-api/ (run by run.ts against the sandbox at BASE_URL). */
import { client } from "./hey-api/client.gen";
import { createDeployment, listDeployments } from "./hey-api/sdk.gen";
import { zSourceConfig } from "./hey-api/zod.gen";

const baseUrl = process.env.BASE_URL;
if (!baseUrl) throw new Error("BASE_URL is not set");
client.setConfig({ baseUrl, auth: () => "generator-compat-hey-api" });

// The zod schema keeps the constraint of a nullable field (D-130): repo_url is at most 2048 characters.
if (zSourceConfig.safeParse({ repo_url: "x".repeat(2049) }).success)
  throw new Error("zod: repo_url of 2049 characters passed; its maxLength was dropped");
if (!zSourceConfig.safeParse({ repo_url: "x".repeat(2048), integration_id: null }).success)
  throw new Error("zod: repo_url of 2048 characters failed");

const created = await createDeployment({
  body: {
    name: "hey-api-client",
    source: "internal_template",
    source_config: {},
    source_revision_config: {},
    secrets: [],
  },
});
if (created.error !== undefined || created.data === undefined)
  throw new Error(`create answered ${created.response.status}: ${JSON.stringify(created.error)}`);
const listed = await listDeployments({ query: { limit: 10 } });
if (listed.error !== undefined || listed.data === undefined) throw new Error(`list answered ${listed.response.status}`);
if (!listed.data.resources.some((deployment) => deployment.id === created.data.id))
  throw new Error("the created deployment is not listed");
console.log(`hey-api: created ${created.data.id} (${created.response.status}), listed ${listed.data.resources.length}`);
