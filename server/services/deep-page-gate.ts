/**
 * Fairness between organizations (D-113): a deep filtered page (any filter but `deployment_ids`, offset
 * 1,000 or more) reads every match before it, so each organization runs one at a time; 16 more wait their
 * turn in order, and beyond that the request is 429 with Retry-After. Every other request is never held.
 */

import { type DeploymentQuery, isUnfiltered } from "../domain/records.js";
import { HttpProblem } from "../errors/http-problem.js";

/** The offset from which a filtered page counts as deep. */
const deepOffset = 1000;
/** Deep pages of one organization that may wait while one runs. */
export const maxWaitingDeepPages = 16;

/** Whether a page reads the matches before its offset (a walk of the filter's matches) rather than seeking to it. */
export function isDeepPage(query: DeploymentQuery): boolean {
  return query.offset >= deepOffset && !isUnfiltered(query) && query.deploymentIds === undefined && !query.matchNothing;
}

/** One running deep page per organization, a bounded line of waiting ones behind it. */
export class DeepPageGate {
  /** Per organization: the resolvers of the pages waiting behind the running one (present while one runs). */
  private readonly lines = new Map<string, Array<() => void>>();

  /** Runs `page` when it is the organization's turn; 429 when its line is full. */
  async run<T>(organizationId: string, page: () => Promise<T>): Promise<T> {
    const line = this.lines.get(organizationId);
    if (line) {
      if (line.length >= maxWaitingDeepPages)
        throw new HttpProblem(
          "tooManyRequests",
          `This organization already has ${maxWaitingDeepPages + 1} deep filtered pages (offset ${deepOffset} or more) in progress; retry after the time in Retry-After, or narrow the filter.`,
          undefined,
          { "Retry-After": "1" },
        );
      await new Promise<void>((resolve) => line.push(resolve));
    } else {
      this.lines.set(organizationId, []);
      // Even the first waits for the next turn of the event loop: the requests that arrived with it (other
      // organizations' among them) are answered first, instead of after every deep page of this turn.
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
