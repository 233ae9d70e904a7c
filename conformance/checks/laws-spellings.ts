/** The spelling law (LAW-014, D-374): a deployment list query answers alike in every legal spelling of its parameters. */
import fc from "fast-check";
import { ensure, expect2xx, jsonObject } from "../check-kit/assert.js";
import { type Json, paths } from "../check-kit/helpers.js";
import type { QuerySpelling } from "../coverage/axes.js";
import { spellings } from "../model/query-spellings.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";
import { idSet } from "./laws-identity.js";
import { lawRuns } from "./laws-run.js";
import { holdsFor, reached } from "./properties-run.js";

/** What of a page the law compares: the ids in order and the returned offset. */
function page(exchange: Exchange): string {
  const body = jsonObject(exchange, "list deployments");
  return JSON.stringify({ ids: ((body.resources as Json[]) ?? []).map((r) => r.id), offset: body.offset });
}

/** Whether a spelling writes this value otherwise than as written (commas and spaces only matter where they are). */
const changes = (spelling: QuerySpelling, value: string) =>
  spelling === "comma literal" ? value.includes(",") : spelling === "space as %20" ? value.includes(" ") : true;

/** LAW-014: each drawn query, sent in every spelling, answers the page it answers as written. */
async function spellingsAnswerAlike(ctx: CheckContext): Promise<void> {
  const ids = await idSet(ctx);
  const parameters: [string, string][] = [
    ["limit", "2"],
    ["offset", "1"],
    ["deployment_ids", ids.slice(0, 3).join(",")],
    ["name_contains", `${ctx.prefix}ids`],
    ["status", "AWAITING_DATABASE,READY"],
    ["remote_reconciled", "false"],
    ["image_version", "no such tag é"],
  ];
  await holdsFor(
    ctx,
    fc
      .subarray(parameters, { minLength: 1 })
      .chain((entries) => fc.shuffledSubarray(entries, { minLength: entries.length })),
    async (entries) => {
      let reference: { exchange: Exchange; shown: string } | undefined;
      for (const { spelling, query } of spellings(entries)) {
        const exchange = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query,
          operation: "listDeployments",
        });
        expect2xx(exchange, `list deployments with ${query} (${spelling})`);
        const shown = page(exchange);
        reference ??= { exchange, shown };
        ensure(
          shown === reference.shown,
          `the query ${new URLSearchParams(entries).toString()} spelled ${spelling} (${query}) answered ${shown}, as written ${reference.shown}`,
          exchange,
        );
        for (const [name, value] of entries) if (changes(spelling, value)) reached(ctx, "spellings", name, spelling);
      }
    },
    lawRuns(ctx),
  );
}

export const spellingLawChecks: Check[] = [
  {
    id: "LAW-014",
    level: "SHOULD",
    tags: ["laws", "generated", "spellings", "listDeployments"],
    statement:
      "A deployment list query answers the same page in every legal spelling: names or values percent-encoded (upper- or lower-case hex), commas left literal, spaces as %20, parameters in another order",
    specRef: "D-374 (RFC 3986 §2.1, §6.2.2; application/x-www-form-urlencoded)",
    needs: ["write", "state"],
    run: spellingsAnswerAlike,
  },
];
