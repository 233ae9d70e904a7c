/** What the runner records about one check, shared by the runner, the vitest adapter and the reporters. */

import type { Exchange } from "../target/http-exchange.js";
import type { CreatedResource, Level } from "./check.js";

/** The failure of a check: why, and the exchange that shows it (redacted), with a curl command. */
interface FailureDetail {
  message: string;
  exchange?: Exchange;
  curl?: string;
  /** An unexpected error (a bug of the check or a transport failure) rather than a contract violation. */
  error?: boolean;
  /** The command that runs this check again with the same seed. */
  replay?: string;
}

/** How often a check's requests got one status from one contract operation (operation absent: no operation matched). */
export interface Answer {
  operation?: string;
  status: number;
  count: number;
}

/** What identifies a check in a report, and what its run left behind. */
export interface CheckMeta {
  id: string;
  level: Level;
  tags: string[];
  statement: string;
  specRef: string;
  area: string;
  failure?: FailureDetail;
  created?: CreatedResource[];
  notes?: string[];
  requests?: number;
  /** The (operation, status) pairs its exchanges hit, for the coverage matrix. */
  answers?: Answer[];
  /** `operationId field` of each request field and query parameter its requests sent non-null, for the coverage (D-490). */
  sentFields?: string[];
  /** Every exchange, only when the run records them (--har, replay). */
  exchanges?: Exchange[];
}

/** The final verdict of one check, as reports show it. */
export interface Verdict extends Omit<CheckMeta, "failure"> {
  status: "pass" | "fail" | "skip";
  durationMs: number;
  skipReason?: string;
  failure?: FailureDetail;
}
