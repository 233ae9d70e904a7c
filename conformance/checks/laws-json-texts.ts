/**
 * The JSON-text laws (LAW-022, LAW-023, D-487): every answer of the run, whichever check got it, is UTF-8, starts with
 * no byte order mark and repeats no member name in one object.
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
    statement:
      "No answer of the run, whichever check got it, starts with a byte order mark or gives one member name twice in one object",
    specRef:
      "D-373 (RFC 8259 §8.1: no byte order mark), D-487 (RFC 8259 §4, RFC 7493 §2.3: the names within an object are unique)",
    needs: [],
    async run(ctx) {
      const texts = runJsonTexts(ctx.config);
      ensure(!texts.byteOrderMark, "an answer's body starts with a byte order mark (EF BB BF)", texts.byteOrderMark);
      ensure(
        !texts.repeated,
        `an answer gives the member name ${JSON.stringify(texts.repeated?.name)} twice in one object`,
        texts.repeated?.exchange,
      );
    },
  },
];
