/**
 * The breaking-change gate's second opinion (D-82, D-480): every case of contract-change-cases.ts judged by Redocly CLI's
 * own `diff` too. About a second of CPU per case on a cold cache, so it runs as `npm run test:redocly` (a CI step),
 * not in `npm test`.
 */
import { describe, expect, it } from "vitest";
import { scaledMs } from "../common/machine-time.js";
import { baseText, cases, classify } from "./contract-change-cases.js";
import { redoclyDiff } from "./redocly-diff.js";

/**
 * Redocly CLI's `diff` (experimental) rates each case too: a breaking change here is a major bump
 * there. Where the two disagree on purpose, the reason is written here.
 */
const redoclyDisagrees: Record<string, string> = {
  // Redocly: patch, since the server ignores unknown fields (D-28). Here: a client still sending the field has its value dropped silently.
  "request field removed": "a removed request field is breaking here",
  // Redocly: major, the anyOf combinator changed. Here: a client that handles null still works when null never comes.
  "response field no longer nullable": "a response losing null is compatible here",
  // Redocly: major for any constraint change. Here: a response within other bounds breaks no parser (info).
  "response constraint changed": "response constraints are info here",
  // Redocly: major, a response was removed. Here: an error status no longer documented is info, as the gate's rules say.
  "error status removed": "a removed error status is info here",
  // Redocly: major, the shared schema's response maximum changed too. Here: a loosened request, a response change is info.
  "ResourceSpec cpu maximum inside its nullable branch removed": "a loosened request is compatible here",
};

describe("agreement with redocly diff", () => {
  it(
    "rates every case as breaking exactly when Redocly asks for a major bump",
    async () => {
      const disagreements: string[] = [];
      for (const { name, given } of cases) {
        const { text, changes } = await classify(given);
        const redocly = await redoclyDiff(baseText, text);
        const ours = changes.some((change) => change.severity === "breaking");
        if (ours !== (redocly.bump === "major") && !(name in redoclyDisagrees))
          disagreements.push(
            `${name}: ours ${ours ? "breaking" : "not breaking"}, Redocly ${redocly.bump} (${redocly.changes.map((change) => `${change.rules.join("+")} ${change.impact}`).join("; ")})`,
          );
      }
      expect(disagreements).toEqual([]);
    },
    scaledMs(300_000),
  );
});
