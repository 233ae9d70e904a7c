/**
 * The server-error laws. LAW-020: no read the interface allows is answered 500, whichever check sent it (a check at
 * SHOULD that sends a legal combination of filters would otherwise fail alone at its own level when the target breaks
 * on it). LAW-025: no 5xx of the run shows the target's insides (D-26).
 */
import { ensure } from "../check-kit/assert.js";
import { runServerErrors } from "../model/run-server-errors.js";
import type { Check, CheckContext } from "../runner/check.js";

/** LAW-020: the first allowed read of the run answered 500, if any. */
async function allowedReadsServed(ctx: CheckContext): Promise<void> {
  const failed = runServerErrors(ctx.config).first;
  if (failed)
    ensure(
      false,
      "a read whose every parameter holds a value the contract takes was answered 500: the target failed on a request it must serve",
      failed,
    );
}

/** LAW-025: the first 5xx of the run whose body shows a stack frame, a source file, SQL or a database error, if any. */
async function serverErrorsKeepInsides(ctx: CheckContext): Promise<void> {
  const leak = runServerErrors(ctx.config).leak;
  if (leak) ensure(false, `a ${leak.exchange.response.status} answer's body shows ${leak.what}`, leak.exchange);
}

export const serverErrorLawChecks: Check[] = [
  {
    id: "LAW-020",
    level: "MUST",
    tags: ["laws", "http", "listOAuthProviders", "listCodehostRepositories", "listDeployments"],
    statement:
      "No read of the run, whichever check sent it, is answered 500 when it is a GET of a list operation whose every path, query and header parameter holds a value the contract takes (each query parameter written plainly and once)",
    specRef:
      "interface-spec: 2., 3. and 5. (the response of each list; Errors: the constraints a request can violate), RFC 9110 §15.6.1 (500: the server failed to fulfil a request); D-456",
    needs: ["state"],
    run: allowedReadsServed,
  },
  {
    id: "LAW-025",
    level: "SHOULD",
    tags: ["laws", "http", "errors"],
    statement:
      "No 5xx answer of the run, whichever check got it, shows the target's insides: a stack frame, a source file and line, SQL or a database driver's error",
    specRef: "D-26 (a 5xx never carries a stack trace, SQL, file path or other internal detail)",
    needs: [],
    run: serverErrorsKeepInsides,
  },
];
