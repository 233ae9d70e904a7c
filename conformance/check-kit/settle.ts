/**
 * Status checks judge only while the statuses they judge hold still (D-181): the deployments' statuses are read
 * before and after the judged requests, and a round whose statuses moved is no verdict and is run again, for at
 * most --settle-ms (the target's provisioning delay), so a check's power does not depend on that delay.
 */
import { type CheckContext, CheckFailure } from "../runner/check.js";
import { walkDeployments } from "./helpers.js";

/** Time between two rounds while statuses move. */
const pollMs = 250;

/** The status of each deployment, as listed by its id (undefined when it is not listed). */
async function statusesOf(ctx: CheckContext, ids: readonly string[]): Promise<Map<string, unknown>> {
  const { records } = await walkDeployments(ctx, { deployment_ids: ids.join(",") }, 100, 10);
  return new Map(ids.map((id) => [id, records.find((r) => r.id === id)?.status]));
}

const same = (a: Map<string, unknown>, b: Map<string, unknown>) => [...a].every(([id, status]) => b.get(id) === status);

/**
 * Runs `judge` with the statuses of `ids` read just before it, and keeps its outcome (a pass or a CheckFailure) only
 * when the statuses read just after it are the same; otherwise waits and runs another round. When the statuses never
 * held still within --settle-ms (at least one round), the check is skipped with the reason.
 */
export async function whileStatusesHold<T>(
  ctx: CheckContext,
  ids: readonly string[],
  judge: (statuses: Map<string, unknown>) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + ctx.config.settleMs;
  let rounds = 0;
  for (;;) {
    rounds += 1;
    const before = await statusesOf(ctx, ids);
    let outcome: { value: T } | { failure: CheckFailure };
    try {
      outcome = { value: await judge(before) };
    } catch (error) {
      if (!(error instanceof CheckFailure)) throw error;
      outcome = { failure: error };
    }
    if (same(before, await statusesOf(ctx, ids))) {
      if ("failure" in outcome) throw outcome.failure;
      return outcome.value;
    }
    if (Date.now() >= deadline)
      ctx.skip(
        `the statuses of ${ids.length} deployment(s) moved during each of ${rounds} round(s) within --settle-ms ${ctx.config.settleMs}: raise it to the target's provisioning delay`,
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
