/**
 * The server-error law (LAW-020): no read the interface allows is answered 500, whichever check sent it. A check at
 * SHOULD that sends a legal combination of filters (several tag_value_ids, every status) would otherwise fail alone at
 * its own level when the target breaks on it.
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
];
