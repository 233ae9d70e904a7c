/**
 * Fairness between organizations (D-113, D-283): a filtered page (any filter but `deployment_ids`) may read
 * the whole tenant whatever its offset (a filter that matches few rows), so each organization runs one at a
 * time; 16 more wait their turn in order, and beyond that the request is 429 with Retry-After. Unfiltered pages
 * (an index seek) and `deployment_ids` pages (at most 100 lookups) are never held.
 */

import { type DeploymentQuery, isUnfiltered } from "../domain/records.js";
import { HttpProblem } from "../errors/http-problem.js";

/** Filtered pages of one organization that may wait while one runs. */
export const maxWaitingPages = 16;

/** Whether a page's database work is bounded only by the tenant's size: a filter other than `deployment_ids`. */
export function isGatedPage(query: DeploymentQuery): boolean {
  return !isUnfiltered(query) && query.deploymentIds === undefined && !query.matchNothing;
}

/** One running filtered page per organization, a bounded line of waiting ones behind it. */
export class FilteredListGate {
  /** Per organization: the resolvers of the pages waiting behind the running one (present while one runs). */
  private readonly lines = new Map<string, Array<() => void>>();

  /** Runs `page` when it is the organization's turn; 429 when its line is full. */
  async run<T>(organizationId: string, page: () => Promise<T>): Promise<T> {
    const line = this.lines.get(organizationId);
    if (line) {
      if (line.length >= maxWaitingPages)
        throw new HttpProblem(
          "tooManyRequests",
          `This organization already has ${maxWaitingPages + 1} filtered lists in progress; retry after the time in Retry-After.`,
          undefined,
          { "Retry-After": "1" },
        );
      await new Promise<void>((resolve) => line.push(resolve));
    } else {
      this.lines.set(organizationId, []);
      // Even the first waits for the next turn of the event loop: the requests that arrived with it (other
      // organizations' among them) are answered first, instead of after every filtered page of this turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    try {
      return await page();
    } finally {
      const waiting = this.lines.get(organizationId)!;
      const next = waiting.shift();
      // The next page starts on a later turn of the event loop, after the I/O waiting meanwhile: resolved
      // at once, it would run in this turn's microtasks and the organization's pages would run back to back.
      if (next) setImmediate(next);
      else this.lines.delete(organizationId);
    }
  }
}
