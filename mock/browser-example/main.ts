/** The browser example (D-173): the stateful MSW handlers in MSW's service worker; the typed client creates a deployment, lists it, and watches it turn READY. */
// The package names: in the repository vite.config.ts points them at the sources, the package check installs the tarballs.
import { createServiceClient, unwrap } from "deployment-client";
import { contractHandlers } from "deployment-mock/msw";
import { setupWorker } from "msw/browser";

const readyAfterMs = 500;
const log = document.getElementById("log") as HTMLElement;
const say = (line: string) => {
  log.textContent += `${line}\n`;
};

async function run(): Promise<Record<string, unknown>> {
  const baseUrl = `${location.origin}/api`;
  const worker = setupWorker(...contractHandlers({ baseUrl, stateful: true, readyAfterMs }));
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const client = createServiceClient({ baseUrl, apiKey: "browser-example" });
  const created = await unwrap(
    client.POST("/v2/deployments", {
      body: {
        name: "browser-agent",
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
        secrets: [{ name: "TOKEN", value: "s3cret" }],
      },
    }),
  );
  say(`created ${created.name}: ${created.status}`);
  const listed = await unwrap(client.GET("/v2/deployments", { params: { query: { name_contains: "browser" } } }));
  say(`listed: ${listed.resources.map((d) => `${d.name} ${d.status}`).join(", ")}`);
  let status = listed.resources[0]?.status;
  // Bounded: 100 looks, 50 ms apart, for a delay of 500 ms.
  for (let look = 0; look < 100 && status !== "READY"; look++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const page = await unwrap(client.GET("/v2/deployments", { params: { query: { deployment_ids: [created.id] } } }));
    status = page.resources[0]?.status;
  }
  say(`after the delay: ${status}`);
  return {
    createdStatus: created.status,
    createdSecret: created.secrets[0]?.value,
    listedIds: listed.resources.map((d) => d.id),
    createdId: created.id,
    finalStatus: status,
  };
}

run().then(
  (result) => {
    document.body.dataset.result = JSON.stringify(result);
  },
  (error: unknown) => {
    document.body.dataset.result = JSON.stringify({ error: String(error) });
  },
);
