/**
 * Work of one organization that may crowd out the others (D-283, D-350): at most `running` at a time per
 * organization, a line of `waiting` more behind them in order, and 429 with Retry-After beyond the line. Every
 * entry, the first included, starts on a later turn of the event loop than the request that asked for it.
 */
import { HttpProblem } from "../errors/http-problem.js";

/** How many run at once per organization, how many wait, and what they are (for the 429's detail). */
export interface GateSize {
  running: number;
  waiting: number;
  what: string;
}

interface Lane {
  running: number;
  line: Array<() => void>;
}

/** Per-organization slots with a bounded line; a slot is held from `acquire` until its release is called. */
export class OrganizationGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(readonly size: GateSize) {}

  /** Waits for one of the organization's slots and returns its release (idempotent); 429 when the line is full. */
  async acquire(organizationId: string): Promise<() => void> {
    let lane = this.lanes.get(organizationId);
    if (!lane) {
      lane = { running: 0, line: [] };
      this.lanes.set(organizationId, lane);
    }
    if (lane.running < this.size.running && lane.line.length === 0) {
      lane.running += 1;
      // Even the first waits for the next turn of the event loop: the requests that arrived with it (other
      // organizations' among them) are answered first, instead of after every held entry of this turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else {
      if (lane.line.length >= this.size.waiting)
        throw new HttpProblem(
          "tooManyRequests",
          `This organization already has ${this.size.running + this.size.waiting} ${this.size.what} in progress; retry after the time in Retry-After.`,
          undefined,
          { "Retry-After": "1" },
        );
      // A released slot passes to the first in line, so `running` stays counted.
      await new Promise<void>((resolve) => lane.line.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(organizationId, lane);
    };
  }

  /** Runs `work` in one of the organization's slots. */
  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(organizationId);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private release(organizationId: string, lane: Lane): void {
    const next = lane.line.shift();
    // The next entry starts on a later turn of the event loop, after the I/O waiting meanwhile: resolved at once,
    // it would run in this turn's microtasks and the organization's entries would run back to back.
    if (next) {
      setImmediate(next);
      return;
    }
    lane.running -= 1;
    if (lane.running === 0) this.lanes.delete(organizationId);
  }
}
