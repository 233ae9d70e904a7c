/**
 * Lists of one organization written at once (D-113, D-283): only a filtered page, which may read a whole tenant to fill
 * itself, waits in its organization's line; beyond the line it is refused 429, said as RFC 6585 and RFC 9110 say it.
 */
import { randomUUID } from "node:crypto";
import { createDeployment, listDeployments, paths } from "../check-kit/helpers.js";
import { wireProblemFaults } from "../check-kit/problem-faults.js";
import { answersOnWire, closingGet, statusTally } from "../check-kit/wire-answers.js";
import { type Check, type CheckContext, CheckFailure } from "../runner/check.js";
import { retryAfterMs } from "../target/rate-limit.js";
import type { WireAnswer } from "../target/wire.js";

/** Lists of each kind written at once: more than a line of 16 behind one running page holds (D-113), with room. */
const perKind = 30;
const tags = ["listDeployments", "deployments", "fairness"];
/** Bytes of a record's JSON text past which its page may be heavy (D-350: over 16 KiB), with room for spelling. */
const heavyNear = 12 * 1024;

/** The answers to `queries`, each a list of deployments on a connection of its own, all written in one turn. */
async function burst(ctx: CheckContext, queries: readonly string[]): Promise<(WireAnswer | undefined)[]> {
  // the run asked for a pace (--max-rps): a burst is what it rules out, so this check has nothing it may send
  if (ctx.config.maxRps) ctx.skip("sends lists in a burst, which --max-rps rules out");
  const answers = await answersOnWire(
    ctx,
    queries.map((query) => closingGet(ctx, `${paths.deployments}?${query}`)),
  );
  // a target that caps the connections of one client asks to be waited for: its 503 is no verdict here (D-380)
  if (answers.some((a) => a?.status === 503 && a.headers["retry-after"] !== undefined))
    ctx.skip(`the target caps the connections of one client: ${statusTally(answers)}`);
  return answers;
}

/** Whether the newest deployment's page (limit=1) may be a heavy one (D-350). */
async function newestIsHeavy(ctx: CheckContext): Promise<boolean> {
  const { resources } = await listDeployments(ctx, { limit: 1 });
  return resources.some((record) => Buffer.byteLength(JSON.stringify(record)) > heavyNear);
}

/** What keeps a 429 from saying why and when to retry; none for any other answer. */
function refusalFaults(answer: WireAnswer): string[] {
  if (answer.status !== 429) return [];
  const faults = wireProblemFaults(answer);
  if (retryAfterMs({ response: answer }) === undefined)
    faults.push(`Retry-After is ${JSON.stringify(answer.headers["retry-after"] ?? null)}, neither seconds nor a date`);
  return faults;
}

export const listFairnessChecks: Check[] = [
  {
    id: "DEP-LIST-047",
    level: "SHOULD",
    tags,
    statement: `Lists that read no more than they return are never held or refused: ${2 * perKind} lists of one key written at once on connections of their own, ${perKind} unfiltered (limit=1, unless the newest deployment makes a heavy page, D-350, and the run may not write a light one) and ${perKind} by deployment_ids, are each answered 200, none 429`,
    specRef:
      "D-113 (only a deep filtered page waits its turn; no other request is held or refused), D-283 (every filtered list but deployment_ids), D-350 (a heavy page waits in a line of its own)",
    needs: ["server"],
    async run(ctx) {
      // a page holding a deployment over 16 KiB is held by D-350's line of heavy pages: the unfiltered lists are
      // judged while the newest deployment is well under that (a run that may write makes a light one newest), else
      // deployment_ids lists take their place
      let heavy = await newestIsHeavy(ctx);
      if (heavy && !ctx.config.readOnly) {
        await createDeployment(ctx, { label: "light" });
        heavy = await newestIsHeavy(ctx);
      }
      if (heavy) ctx.note("the newest deployment makes a heavy page (D-350): deployment_ids lists only");
      const queries = [
        ...Array.from({ length: perKind }, () => (heavy ? `deployment_ids=${randomUUID()}` : "limit=1")),
        ...Array.from({ length: perKind }, () => `deployment_ids=${randomUUID()}`),
      ];
      const answers = await burst(ctx, queries);
      const held = queries.filter((_, i) => answers[i]?.status !== 200);
      if (held.length > 0)
        throw new CheckFailure(
          `of ${queries.length} lists written at once, ${held.length} were not answered 200 (${statusTally(answers)}), among them ${[
            ...new Set(held.map((query) => query.replace(/=[0-9a-f-]{36}$/, "=<id>"))),
          ].join(" and ")}`,
        );
    },
  },
  {
    id: "DEP-LIST-048",
    level: "SHOULD",
    tags: [...tags, "errors"],
    statement: `${2 * perKind} filtered lists (name_contains) of one key written at once are each answered 200 or, beyond the organization's line, 429: a problem detail of too-many-requests with a Retry-After of seconds or an HTTP date`,
    specRef:
      "D-113 (429 with Retry-After: 1 beyond 16 waiting), D-283, RFC 6585 §4 (a 429 says why; it may say when to retry), RFC 9110 §10.2.3 (Retry-After is a date or seconds), D-16",
    needs: ["server"],
    async run(ctx) {
      const answers = await burst(
        ctx,
        Array.from({ length: 2 * perKind }, (_, i) => `name_contains=${ctx.prefix}${i % 2 ? "fair" : "line"}&limit=5`),
      );
      const wrong = answers.flatMap((answer, i) => {
        if (!answer) return [`list ${i + 1} was left unanswered`];
        if (answer.status !== 200 && answer.status !== 429) return [`list ${i + 1} was answered ${answer.status}`];
        const faults = refusalFaults(answer);
        return faults.length > 0
          ? [`the 429 of list ${i + 1}: ${faults.join("; ")}: ${answer.body.slice(0, 200)}`]
          : [];
      });
      if (wrong.length > 0) throw new CheckFailure(`${statusTally(answers)}; ${wrong.slice(0, 3).join("; ")}`);
      if (answers.some((answer) => answer?.status === 429))
        ctx.note(`${statusTally(answers)}: the line was full, and each 429 said so (D-113)`);
    },
  },
];
