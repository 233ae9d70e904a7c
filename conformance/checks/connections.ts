/** Connections one after another (D-466): a per-address cap counts the connections open now, never those closed. */
import { setTimeout as sleep } from "node:timers/promises";
import { paths } from "../check-kit/helpers.js";
import { answerOnWire, closingGet, statusTally } from "../check-kit/wire-answers.js";
import { type Check, CheckFailure } from "../runner/check.js";
import type { WireAnswer } from "../target/wire.js";

/** Connections opened and closed in turn: past the reference server's cap of 256 open ones per address, with room. */
const inTurn = 300;

export const connectionChecks: Check[] = [
  {
    id: "HDR-011",
    level: "SHOULD",
    tags: ["connections", "listOAuthProviders"],
    statement: `${inTurn} lists of providers, one after another, each on a connection of its own that closes after its answer, are each answered 200: a cap on one client's connections counts those still open`,
    specRef: "D-466 (at most 256 open connections per client address; one more is 503)",
    needs: ["server"],
    async run(ctx) {
      const answers: (WireAnswer | undefined)[] = [];
      const request = closingGet(ctx, paths.providers);
      for (let i = 0; i < inTurn; i++) {
        // raw connections bypass the runner's pacing: a run given --max-rps keeps to it here too
        if (ctx.config.maxRps) await sleep(1000 / ctx.config.maxRps);
        answers.push(await answerOnWire(ctx, request));
      }
      const tally = statusTally(answers);
      const firstOther = answers.findIndex((answer) => answer?.status !== 200);
      // a 429 is the target's rate limit, which the interface leaves open: no verdict (D-380)
      if (answers.some((answer) => answer?.status === 429))
        ctx.skip(`the target limits the rate of requests: ${tally}`);
      if (firstOther >= 0)
        throw new CheckFailure(
          `of ${inTurn} connections opened one after another, each closed after its answer: ${tally}; connection ${firstOther + 1} was the first answered ${answers[firstOther]?.status ?? "none"}`,
        );
    },
  },
];
