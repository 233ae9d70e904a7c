/**
 * The runtime of generated/react-query.ts, the `deployment-client/react-query` entry (D-331): TanStack Query over the
 * typed client through openapi-react-query, both optional peers, and the deployment list as an infinite query whose
 * page parameter is the list's `offset`. A real source file so that the compiler checks it; generator/ copies it.
 */

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { Client } from "openapi-fetch";
import createQueryClient, { type OpenapiQueryClient } from "openapi-react-query";
import {
  type DeploymentList,
  type DeploymentListQuery,
  nextPageOffset,
  type Problem,
  type ServiceClient,
} from "../generated/client.js";

/** The paths of the typed client (the contract's, with one create body per source). */
type ServicePaths = ServiceClient extends Client<infer Paths> ? Paths : never;

/** Options of `useDeploymentPages`: the page size, and the TanStack options that do not touch the paging. */
export interface DeploymentPagesOptions {
  /** Deployments per page (`limit`); default the query's `limit`, else 100. */
  pageSize?: number;
  /** False holds the query back (TanStack's `enabled`). */
  enabled?: boolean;
  /** How long pages stay fresh, in ms (TanStack's `staleTime`). */
  staleTime?: number;
  /** The most pages kept in the cache (TanStack's `maxPages`); unset keeps every page. */
  maxPages?: number;
}

/** openapi-react-query's client of the service (`useQuery`, `useSuspenseQuery`, `useMutation`, `queryOptions`, `useInfiniteQuery`) and `useDeploymentPages`. */
export interface ServiceQueries extends OpenapiQueryClient<ServicePaths> {
  /**
   * The deployment list page after page: `fetchNextPage()` asks for the page at the offset the last page returned, and
   * `hasNextPage` turns false where the list ends (D-09).
   */
  useDeploymentPages(
    query?: Omit<DeploymentListQuery, "limit"> & { limit?: number },
    options?: DeploymentPagesOptions,
  ): UseInfiniteQueryResult<InfiniteData<DeploymentList, number>, Problem>;
}

/** The query helpers of a typed client (`createServiceClient`): use them inside a TanStack `QueryClientProvider`. */
export function createServiceQueries(client: ServiceClient): ServiceQueries {
  const queries = createQueryClient(client);
  return {
    ...queries,
    useDeploymentPages(query = {}, { pageSize, ...options } = {}) {
      const limit = pageSize ?? query.limit ?? 100;
      return queries.useInfiniteQuery(
        "get",
        "/v2/deployments",
        { params: { query: { ...query, limit } } },
        {
          ...options,
          pageParamName: "offset",
          initialPageParam: query.offset ?? 0,
          getNextPageParam: (last: DeploymentList, _pages: DeploymentList[], offset: unknown) =>
            nextPageOffset(last, limit, offset as number),
        },
      ) as UseInfiniteQueryResult<InfiniteData<DeploymentList, number>, Problem>;
    },
  };
}
