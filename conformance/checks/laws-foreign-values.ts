/**
 * The law of records kept apart (LAW-021): no record of the run shows a value that only another record's create sent,
 * whichever checks sent the creates: a store that carries a field over from the create before (a resource spec, secret
 * references) into one that left it out is seen wherever it happens.
 */
import { ensure } from "../check-kit/assert.js";
import { runForeignValues } from "../model/run-foreign-values.js";
import type { Check, CheckContext } from "../runner/check.js";

/** LAW-021: the first record of the run that shows another create's value, if any. */
async function recordsKeptApart(ctx: CheckContext): Promise<void> {
  const crossed = runForeignValues(ctx.config).first;
  if (crossed) ensure(false, `a record shows a value another record was sent: ${crossed.why}`, crossed.exchange);
}

export const foreignValueLawChecks: Check[] = [
  {
    id: "LAW-021",
    level: "MUST",
    tags: ["laws", "independence", "createDeployment", "createOAuthProvider", "listDeployments", "listOAuthProviders"],
    statement:
      "No record the run created, in a create answer or a list, shows a string (of 8 characters or more, in a member a body can send, no value the contract enumerates) that its own create did not send and another accepted create of the run did",
    specRef:
      "interface-spec: 1. and 6. (the response is the record created from the body sent); 2. and 5. (the lists show those records); D-458",
    needs: ["state"],
    run: recordsKeptApart,
  },
];
