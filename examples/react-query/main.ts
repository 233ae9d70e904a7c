/**
 * The React Query example (D-331): the stateful MSW handlers in MSW's service worker hold a list the page creates
 * first; a React component walks it with `useDeploymentPages` (openapi-react-query's infinite query, the list's
 * `offset` as its page parameter) up to the page where the list ends, rendering every deployment.
 */
// The package names: in the repository vite.config.ts points them at the sources, the package check installs the tarballs.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createServiceClient, type DeploymentList, unwrap } from "deployment-client";
import { createServiceQueries } from "deployment-client/react-query";
import { contractHandlers } from "deployment-mock/msw";
import { setupWorker } from "msw/browser";
import { createElement, useEffect } from "react";
import { createRoot } from "react-dom/client";

/** Deployments the page creates, and the page size: 45 in pages of 7 is six full pages and one of three. */
const count = 45;
const pageSize = 7;
const prefix = "paged-";

const log = document.getElementById("log") as HTMLElement;
const say = (line: string) => {
  log.textContent += `${line}\n`;
};
const report = (result: Record<string, unknown>) => {
  document.body.dataset.result = JSON.stringify(result);
};

const baseUrl = `${location.origin}/api`;
const client = createServiceClient({ baseUrl, apiKey: "react-query-example" });
const queries = createServiceQueries(client);

/** The list, page after page: asks for the next page while there is one, then reports what the pages held. */
function Deployments({ createdIds }: { createdIds: string[] }) {
  const list = queries.useDeploymentPages({ name_contains: prefix }, { pageSize });
  const pages: DeploymentList[] = list.data?.pages ?? [];
  const seen = pages.flatMap((page) => page.resources);
  useEffect(() => {
    if (list.isError) report({ error: JSON.stringify(list.error) });
    else if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
    else if (list.isSuccess && !list.hasNextPage) {
      say(`${pages.length} pages: ${pages.map((page) => page.resources.length).join(", ")} deployments`);
      report({
        createdIds,
        seenIds: seen.map((deployment) => deployment.id),
        pages: pages.length,
        pageSize,
        rendered: document.querySelectorAll("#app li").length,
      });
    }
  });
  return createElement(
    "ul",
    null,
    seen.map((deployment) => createElement("li", { key: deployment.id }, `${deployment.name} ${deployment.status}`)),
  );
}

async function run(): Promise<void> {
  const worker = setupWorker(...contractHandlers({ baseUrl, stateful: true }));
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "bypass", quiet: true });
  const createdIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await unwrap(
      client.POST("/v2/deployments", {
        body: {
          name: `${prefix}${String(i).padStart(3, "0")}`,
          source: "internal_container",
          source_config: {},
          source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
          secrets: [],
        },
      }),
    );
    createdIds.push(created.id);
  }
  say(`created ${createdIds.length} deployments`);
  createRoot(document.getElementById("app") as HTMLElement).render(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(Deployments, { createdIds })),
  );
}

run().catch((error: unknown) => report({ error: String(error) }));
