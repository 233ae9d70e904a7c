/**
 * The JSON-text laws (LAW-022 to LAW-024, D-487): every answer of the run, whichever check got it, is UTF-8, starts
 * with no byte order mark and repeats no member name in one object.
 */
import { ensure } from "../check-kit/assert.js";
import { runJsonTexts } from "../model/run-json-texts.js";
import type { Check } from "../runner/check.js";

export const jsonTextLawChecks: Check[] = [
  {
    id: "LAW-022",
    level: "MUST",
    tags: ["laws", "json"],
    statement: "No answer of the run, whichever check got it, has a body whose bytes are not UTF-8",
    specRef: "interface-spec: Bodies are JSON (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8); D-487",
    needs: [],
    async run(ctx) {
      const broken = runJsonTexts(ctx.config).notUtf8;
      ensure(!broken, "an answer's body is not UTF-8 (shown with U+FFFD in place of the bad bytes)", broken);
    },
  },
  {
    id: "LAW-023",
    level: "SHOULD",
    tags: ["laws", "json"],
    statement: "No answer of the run, whichever check got it, gives one member name twice in one object",
    specRef: "D-487 (RFC 8259 §4, RFC 7493 §2.3: the names within an object are unique)",
    needs: [],
    async run(ctx) {
      const repeated = runJsonTexts(ctx.config).repeated;
      ensure(
        !repeated,
        `an answer gives the member name ${JSON.stringify(repeated?.name)} twice in one object`,
        repeated?.exchange,
      );
    },
  },
  {
    id: "LAW-024",
    level: "MUST",
    tags: ["laws", "json"],
    statement: "No answer of the run, whichever check got it, starts with a byte order mark",
    specRef:
      "interface-spec: Bodies are JSON (RFC 8259 §8.1: a JSON text sent over a network MUST NOT start with a byte order mark; JSON.parse refuses one); D-487",
    needs: [],
    async run(ctx) {
      const marked = runJsonTexts(ctx.config).byteOrderMark;
      ensure(!marked, "an answer's body starts with a byte order mark (EF BB BF)", marked);
    },
  },
];
