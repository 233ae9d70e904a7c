/**
 * Lists that read no more than they return are never held back (D-113, D-283): only a filtered page, which may read a
 * whole tenant to fill itself, waits in its organization's line or is refused 429.
 */
import { randomUUID } from "node:crypto";
import { paths } from "../check-kit/helpers.js";
import { answersOnWire, type WireText } from "../check-kit/wire-answers.js";
import { wireHeaders } from "../check-kit/wire-headers.js";
import { type Check, CheckFailure } from "../runner/check.js";

/** Lists of each kind written at once: more than a line of 16 behind one running page holds (D-113), with room. */
const perKind = 20;

export const listFairnessChecks: Check[] = [
  {
    id: "DEP-LIST-047",
    level: "SHOULD",
    tags: ["listDeployments", "deployments", "fairness"],
    statement: `Lists that read no more than they return are never held or refused: ${2 * perKind} lists of one key written at once on connections of their own, ${perKind} unfiltered (limit=1) and ${perKind} by deployment_ids, are each answered 200, none 429`,
    specRef:
      "D-113 (only a deep filtered page waits its turn; no other request is held or refused), D-283 (every filtered list but deployment_ids)",
    needs: ["server"],
    async run(ctx) {
      // the run asked for a pace (--max-rps): a burst is what it rules out, so this check has nothing it may send
      if (ctx.config.maxRps) ctx.skip("sends lists in a burst, which --max-rps rules out");
      const head = Object.entries({ ...wireHeaders(ctx), Accept: "application/json" })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      const list =
        (query: string): WireText =>
        (c) =>
          `GET ${c.basePath}${paths.deployments}?${query} HTTP/1.1\r\nHost: ${c.host}\r\n${head}Connection: close\r\n\r\n`;
      const lists = [
        ...Array.from({ length: perKind }, () => ({ label: "limit=1", text: list("limit=1") })),
        ...Array.from({ length: perKind }, () => {
          const query = `deployment_ids=${randomUUID()}`;
          return { label: query, text: list(query) };
        }),
      ];
      const answers = await answersOnWire(
        ctx,
        lists.map(({ text }) => text),
      );
      const statuses = new Map<string, number>();
      for (const answer of answers) {
        const status = answer ? String(answer.status) : "none";
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // a target that caps the connections of one client asks to be waited for: its 503 is no verdict here (D-380)
      if (answers.some((a) => a?.status === 503 && a.headers["retry-after"] !== undefined))
        ctx.skip(
          `the target caps the connections of one client: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(", ")}`,
        );
      const held = lists.filter((_, i) => answers[i]?.status !== 200);
      if (held.length > 0)
        throw new CheckFailure(
          `of ${lists.length} lists written at once, ${held.length} were not answered 200 (${[...statuses]
            .map(([status, n]) => `${n} × ${status}`)
            .join(
              ", ",
            )}), among them ${[...new Set(held.map(({ label }) => label.replace(/=[0-9a-f-]{36}$/, "=<id>")))].join(" and ")}`,
        );
    },
  },
];
