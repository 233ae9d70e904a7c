/** HttpProblem: an RFC 9457 problem detail thrown by any layer (D-16). */
import type { Problem, ProblemFieldError } from "../../contract/schemas.js";
import { type ProblemKind, problemCatalogue } from "./catalogue.js";

/** An error that the problem middleware renders as `application/problem+json`. */
export class HttpProblem extends Error {
  readonly status: number;

  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly errors?: ProblemFieldError[],
    /** Extra response headers, e.g. `Allow` on a 405. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "HttpProblem";
    this.status = problemCatalogue[kind].status;
  }

  /** The problem body: type, title and status from the catalogue, detail and errors from here. */
  toProblem(): Problem {
    const entry = problemCatalogue[this.kind];
    const problem: Problem = { type: entry.type, title: entry.title, status: entry.status, detail: this.detail };
    if (this.errors && this.errors.length > 0) problem.errors = this.errors;
    return problem;
  }
}
