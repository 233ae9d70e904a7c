/**
 * Fairness between organizations (D-113, D-283): a filtered page (any filter but `deployment_ids`) may read
 * the whole tenant whatever its offset (a filter that matches few rows), so each organization runs one at a
 * time; 16 more wait their turn in order, and beyond that the request is 429 with Retry-After. Unfiltered pages
 * (an index seek) and `deployment_ids` pages (at most 100 lookups) are never held.
 */

import { type DeploymentQuery, isUnfiltered } from "../domain/records.js";
import { type GateSize, OrganizationGate } from "./organization-gate.js";

/** The filtered-list gate's size: one running, 16 waiting per organization. */
const filteredListGateSize: GateSize = { running: 1, waiting: 16, what: "filtered lists" };

/** Whether a page's database work is bounded only by the tenant's size: a filter other than `deployment_ids`. */
export function isGatedPage(query: DeploymentQuery): boolean {
  return !isUnfiltered(query) && query.deploymentIds === undefined && !query.matchNothing;
}

/** One running filtered page per organization, a bounded line of waiting ones behind it. */
export function filteredListGate(): OrganizationGate {
  return new OrganizationGate(filteredListGateSize);
}
