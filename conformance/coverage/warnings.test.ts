/** Tests of the weak-run warnings: each sign of a run that proved little, and none for a run that proved much. */
import { describe, expect, it } from "vitest";
import type { Verdict } from "../runner/verdict.js";
import { aVerdict } from "../testing/verdicts.js";
import { weakRunWarnings } from "./warnings.js";

function verdict(status: Verdict["status"], answers: Verdict["answers"] = []): Verdict {
  return aVerdict({ status, answers });
}

describe("weakRunWarnings", () => {
  const cases: {
    name: string;
    given: { verdicts: Verdict[]; createdCount?: number; readOnly?: boolean; warnSkippedPercent?: number };
    want: RegExp[];
  }[] = [
    {
      name: "a healthy run",
      given: {
        verdicts: [
          verdict("pass", [
            { operation: "listDeployments", status: 200, count: 2 },
            { operation: "listCodehostRepositories", status: 200, count: 1 },
            { operation: "listCodehostRepositories", status: 404, count: 1 },
          ]),
        ],
      },
      want: [],
    },
    {
      name: "every answer 401 or 403",
      given: {
        verdicts: [
          verdict("pass", [{ operation: "listDeployments", status: 401, count: 3 }]),
          verdict("fail", [
            { operation: "createDeployment", status: 403, count: 1 },
            { status: 404, count: 2 },
          ]),
        ],
      },
      want: [/every one of the 4 answers of contract operations was 401 or 403/],
    },
    {
      name: "every integration answer 404",
      given: {
        verdicts: [
          verdict("pass", [
            { operation: "listDeployments", status: 200, count: 1 },
            { operation: "listManagedCodehostRepositories", status: 404, count: 2 },
          ]),
        ],
      },
      want: [/integration operations \(3 and 4\) was 404/],
    },
    { name: "nothing created", given: { verdicts: [verdict("pass")], createdCount: 0 }, want: [/created nothing/] },
    {
      name: "nothing created, read-only",
      given: { verdicts: [verdict("pass")], createdCount: 0, readOnly: true },
      want: [],
    },
    {
      name: "more skipped than the threshold",
      given: { verdicts: [verdict("pass"), verdict("skip"), verdict("skip")], warnSkippedPercent: 50 },
      want: [/2 of 3 checks \(67%\) were skipped, more than 50%/],
    },
    {
      name: "MUST checks skipped for missing setup, counted per flag",
      given: {
        verdicts: [
          verdict("pass"),
          { ...verdict("skip"), skipReason: "needs --integration-id" },
          { ...verdict("skip"), skipReason: "needs --integration-id" },
          { ...verdict("skip"), level: "SHOULD", skipReason: "needs --other-api-key" },
          { ...verdict("skip"), skipReason: "needs a target that keeps state (--stateless is set)" },
        ],
        warnSkippedPercent: 100,
      },
      want: [/^2 MUST checks were skipped for missing setup \(--integration-id: 2\)/],
    },
    {
      name: "exactly the threshold",
      given: { verdicts: [verdict("pass"), verdict("skip")], warnSkippedPercent: 50 },
      want: [],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const warnings = weakRunWarnings({
        verdicts: c.given.verdicts,
        createdCount: c.given.createdCount ?? 1,
        readOnly: c.given.readOnly ?? false,
        warnSkippedPercent: c.given.warnSkippedPercent ?? 50,
      });
      expect(warnings).toHaveLength(c.want.length);
      c.want.forEach((pattern, i) => {
        expect(warnings[i]).toMatch(pattern);
      });
    });
});
