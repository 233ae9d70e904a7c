/** Every failure of a request as an RFC 9457 application/problem+json answer (D-16); a 5xx never carries internals. */
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "../errors/database-unavailable.js";
import { errorSummary } from "../errors/error-summary.js";
import { HttpProblem } from "../errors/http-problem.js";
import { commonHeaders } from "./common-headers.js";
import type { PipelineAnswer } from "./exchange.js";

/** Turns an error the pipeline does not know into a problem (a mock's own limits), or undefined. */
export type ProblemOf = (error: unknown) => HttpProblem | undefined;

/** A problem as its answer, with the common headers and the problem's own. */
export function problemAnswer(problem: HttpProblem): PipelineAnswer {
  return {
    status: problem.status,
    headers: { ...commonHeaders, ...problem.headers, "Content-Type": "application/problem+json" },
    body: JSON.stringify(problem.toProblem()),
  };
}

/** Any failure as its problem: HttpProblems as they are, an unreachable database 503 (D-81), `problemOf`'s, anything else a bare 500. */
export function failureAnswer(error: unknown, log: () => Logger, problemOf?: ProblemOf): PipelineAnswer {
  if (error instanceof HttpProblem) return problemAnswer(error);
  if (isDatabaseUnavailable(error)) {
    log().warn({ err: errorSummary(error) }, "database unavailable");
    return problemAnswer(
      new HttpProblem(
        "serviceUnavailable",
        "The service cannot reach its database right now; retry after the time in Retry-After.",
        undefined,
        { "Retry-After": "2" },
      ),
    );
  }
  const known = problemOf?.(error);
  if (known) return problemAnswer(known);
  log().error({ err: errorSummary(error) }, "unhandled error");
  return problemAnswer(new HttpProblem("internal", "The server failed to process the request; try again later."));
}
