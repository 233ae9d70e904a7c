/** Tests of the doctor's printout: per input its verdict, what it enables or what is skipped without it, and the last line. */
import { describe, expect, it } from "vitest";
import type { Check } from "../runner/check.js";
import type { InputVerdict } from "../target/inputs.js";
import { renderDoctor } from "./doctor.js";

const check = (id: string, level: Check["level"], needs: Check["needs"]): Check => ({
  id,
  level,
  needs,
  tags: [],
  statement: "",
  specRef: "",
  run: async () => {},
});
const checks = [
  check("R-1", "MUST", ["integration"]),
  check("R-2", "SHOULD", ["integration", "write"]),
  check("I-1", "SHOULD", ["otherApiKey"]),
];

describe("renderDoctor", () => {
  const cases: { given: string; verdicts: InputVerdict[]; want: RegExp[] }[] = [
    {
      given: "every input right",
      verdicts: [
        { flag: "--api-key", state: "ok", detail: "accepted", needs: [] },
        { flag: "--integration-id", state: "ok", detail: "u: 3 repositories", needs: ["integration"] },
      ],
      want: [
        /^✓ --api-key +accepted$/m,
        /^✓ --integration-id +u: 3 repositories · enables 2 checks \(1 MUST\)$/m,
        /^Every input given is right\.$/m,
      ],
    },
    {
      given: "an unknown integration and a missing key",
      verdicts: [
        { flag: "--integration-id", state: "wrong", detail: "u: unknown integration", needs: ["integration"] },
        { flag: "--other-api-key", state: "absent", detail: "not given", needs: ["otherApiKey"] },
      ],
      want: [
        /^✗ --integration-id +u: unknown integration · without it 2 checks are skipped \(1 MUST\)$/m,
        /^○ --other-api-key +not given · without it 1 checks are skipped \(0 MUST\)$/m,
        /^1 input wrong: fix --integration-id \(exit 2\)$/m,
      ],
    },
  ];
  for (const c of cases)
    it(c.given, () => {
      const text = renderDoctor("http://t", c.verdicts, checks).join("\n");
      for (const w of c.want) expect(text).toMatch(w);
    });
});
