/**
 * Whether the sandbox can answer from a state (D-395): a state `PUT /__mock/state` or `restore()` takes is judged as
 * the list answers it would give, by the contract's answer schemas, and its times and clock within what the
 * sandbox's microsecond clock holds; otherwise it is refused (422 naming the JSON pointer), never stored to make
 * every later list or create answer a 500.
 */
import { operation } from "../../../contract/index.js";
import { responseChecker } from "../../../server/engine.js";
import { type MockState, MockStateError, microsOf } from "./mock-state.js";

/** The furthest a session's clock may run ahead of the wall clock: 100 years (D-395). */
export const maxClockAdvanceMs = 100 * 365 * 24 * 3600 * 1000;

/** The latest time a state may hold: the clock's microseconds stay exact integers until about 2255 (D-395). */
const latestUs = Date.UTC(2200, 0, 1) * 1000;

const check = responseChecker();

/** Throws a MockStateError naming the first pointer of `state` the sandbox could not answer from. */
export function assertAnswerable(state: MockState): void {
  if ((state.clock_advanced_ms ?? 0) > maxClockAdvanceMs)
    throw new MockStateError(`/clock_advanced_ms must be at most ${maxClockAdvanceMs} (100 years)`);
  state.deployments.forEach((d, index) => {
    for (const field of ["created_at", "updated_at"] as const) {
      const us = microsOf(d[field]);
      if (!(us >= 0 && us < latestUs))
        throw new MockStateError(`/deployments/${index}/${field} must be a time from 1970 to 2199`);
    }
  });
  state.oauth_providers.forEach((p, index) => {
    for (const field of ["created_at", "updated_at"] as const) {
      const at = p[field];
      if (at === undefined) continue;
      const us = microsOf(at);
      if (!(us >= 0 && us < latestUs))
        throw new MockStateError(`/oauth_providers/${index}/${field} must be a time from 1970 to 2199`);
    }
  });
  // the answers as a list would give them: a secret shows masked, as every answer shows it
  const resources = state.deployments.map((d) => ({
    ...d,
    secrets: (d.secrets ?? []).map(({ name }) => ({ name, value: "********" })),
  }));
  const deploymentProblems = check(operation("listDeployments"), 200, { resources, offset: 0 });
  if (deploymentProblems.length > 0)
    throw new MockStateError(deploymentProblems[0]!.replace(/^\/resources\//, "/deployments/"));
  const providerProblems = check(operation("listOAuthProviders"), 200, state.oauth_providers);
  if (providerProblems.length > 0) throw new MockStateError(`/oauth_providers${providerProblems[0]}`);
}
