/**
 * Type tests for generated/react-query.ts (D-331): the infinite query's pages are the contract's list pages, its
 * filters are the list's, and the paging parameters are the helper's own. Compiled by `npm run typecheck`, never run;
 * each `@ts-expect-error` sits on the one line that is wrong.
 */
import type { Deployment, DeploymentList, Problem } from "../generated/client.js";
import { createServiceClient } from "../generated/client.js";
import { createServiceQueries } from "../generated/react-query.js";

const queries = createServiceQueries(createServiceClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "k" }));

/** A component body: hooks are only called, never run, here. */
export function usePages(): Deployment[] {
  const list = queries.useDeploymentPages({ status: ["READY"], name_contains: "api" }, { pageSize: 25, maxPages: 4 });
  const pages: DeploymentList[] | undefined = list.data?.pages;
  const offsets: number[] | undefined = list.data?.pageParams;
  const problem: Problem | null = list.error;
  void [offsets, problem];
  // @ts-expect-error: not a status of the contract
  queries.useDeploymentPages({ status: ["SLEEPING"] });
  // @ts-expect-error: the page parameter is the helper's (the offset), not an option
  queries.useDeploymentPages({}, { initialPageParam: 5 });
  const one = queries.useQuery("get", "/v2/deployments", { params: { query: { limit: 5 } } });
  const first: Deployment | undefined = one.data?.resources[0];
  return [...(pages?.flatMap((page) => page.resources) ?? []), ...(first ? [first] : [])];
}
