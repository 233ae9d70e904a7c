/** Connections one after another (D-466): a per-address cap counts the connections open now, never those closed. */
import { setTimeout as sleep } from "node:timers/promises";
import { paths } from "../check-kit/helpers.js";
import { answerOnWire } from "../check-kit/wire-answers.js";
import { wireHeaders } from "../check-kit/wire-headers.js";
import { type Check, CheckFailure } from "../runner/check.js";

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
      const head = Object.entries({ ...wireHeaders(ctx), Accept: "application/json" })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      const statuses = new Map<string, number>();
      let firstOther: string | undefined;
      for (let i = 0; i < inTurn; i++) {
        // raw connections bypass the runner's pacing: a run given --max-rps keeps to it here too
        if (ctx.config.maxRps) await sleep(1000 / ctx.config.maxRps);
        const answer = await answerOnWire(
          ctx,
          (c) => `GET ${c.basePath}${paths.providers} HTTP/1.1\r\nHost: ${c.host}\r\n${head}Connection: close\r\n\r\n`,
        );
        const status = answer ? String(answer.status) : "none";
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== "200") firstOther ??= `connection ${i + 1} was the first answered ${status}`;
      }
      const tally = [...statuses].map(([status, n]) => `${n} × ${status}`).join(", ");
      // a 429 is the target's rate limit, which the interface leaves open: no verdict (D-380)
      if (statuses.has("429")) ctx.skip(`the target limits the rate of requests: ${tally}`);
      if (firstOther)
        throw new CheckFailure(
          `of ${inTurn} connections opened one after another, each closed after its answer: ${tally}; ${firstOther}`,
        );
    },
  },
];
