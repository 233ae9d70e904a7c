/** Tests of check selection (--level, --only, --skip) and of the reasons a check cannot run. */
import { describe, expect, it } from "vitest";
import { validate } from "../cli/run-config.js";
import type { Check } from "./check.js";
import { isSelected, matches, unmatchedTokens, unmetNeed } from "./check-selection.js";

const check = (id: string, level: "MUST" | "SHOULD", tags: string[], needs: Check["needs"] = []): Check => ({
  id,
  level,
  tags,
  statement: "s",
  specRef: "r",
  needs,
  run: async () => {},
});
const listCheck = check("DEP-LIST-007", "MUST", ["listDeployments", "pagination"]);
const isoCheck = check("ISO-001", "SHOULD", ["isolation"], ["otherApiKey", "write"]);

describe("matches", () => {
  const cases: { token: string; want: boolean }[] = [
    { token: "DEP-LIST-007", want: true },
    { token: "dep-list-007", want: true },
    { token: "DEP-LIST", want: true },
    { token: "DEP", want: true },
    { token: "DEP-LIST-00", want: false },
    { token: "pagination", want: true },
    { token: "Pagination", want: false },
    { token: "AUTH", want: false },
  ];
  for (const c of cases) it(c.token, () => expect(matches(listCheck, c.token)).toBe(c.want));
});

describe("isSelected", () => {
  const cases: {
    name: string;
    level: "must" | "should";
    only: string[];
    skip: string[];
    check: Check;
    want: boolean;
  }[] = [
    { name: "default selects all", level: "should", only: [], skip: [], check: isoCheck, want: true },
    { name: "--level must drops SHOULD", level: "must", only: [], skip: [], check: isoCheck, want: false },
    { name: "--level must keeps MUST", level: "must", only: [], skip: [], check: listCheck, want: true },
    { name: "--only by tag", level: "should", only: ["pagination"], skip: [], check: listCheck, want: true },
    { name: "--only excludes others", level: "should", only: ["pagination"], skip: [], check: isoCheck, want: false },
    {
      name: "--skip wins over --only",
      level: "should",
      only: ["DEP-LIST"],
      skip: ["DEP-LIST-007"],
      check: listCheck,
      want: false,
    },
  ];
  for (const c of cases) it(c.name, () => expect(isSelected(c.check, c)).toBe(c.want));
});

describe("unmetNeed", () => {
  const base = validate({ baseUrl: "http://x", apiKey: "k" });
  const cases: { name: string; config: Partial<typeof base>; check: Check; want: RegExp | undefined }[] = [
    { name: "no other key", config: {}, check: isoCheck, want: /--other-api-key/ },
    { name: "read-only", config: { otherApiKey: "o", readOnly: true }, check: isoCheck, want: /--read-only/ },
    { name: "all given", config: { otherApiKey: "o" }, check: isoCheck, want: undefined },
    {
      name: "stateless",
      config: { stateless: true },
      check: check("X-001", "MUST", ["x"], ["state"]),
      want: /keeps state/,
    },
    { name: "hosting", config: {}, check: check("X-002", "MUST", ["x"], ["self_hosted"]), want: /self_hosted only/ },
    {
      name: "integration",
      config: {},
      check: check("X-003", "MUST", ["x"], ["integration"]),
      want: /--integration-id/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const reason = unmetNeed(c.check, { ...base, ...c.config });
      if (c.want) expect(reason).toMatch(c.want);
      else expect(reason).toBeUndefined();
    });
  }
});

describe("unmatchedTokens", () => {
  const cases: { given: { only: string[]; skip: string[] }; want: string[] }[] = [
    { given: { only: ["DEP-LIST", "isolation"], skip: ["ISO-001"] }, want: [] },
    {
      given: { only: ["DEP-LSIT"], skip: [] },
      want: ["--only DEP-LSIT matches no check id, area or tag (did you mean DEP-LIST?)"],
    },
    {
      given: { only: [], skip: ["Pagination", "nothing-like-it-at-all"] },
      want: [
        "--skip Pagination matches no check id, area or tag (did you mean pagination?)",
        "--skip nothing-like-it-at-all matches no check id, area or tag",
      ],
    },
    {
      given: { only: ["DEP-LIST-070"], skip: [] },
      want: ["--only DEP-LIST-070 matches no check id, area or tag (did you mean DEP-LIST-007?)"],
    },
  ];
  for (const c of cases)
    it(JSON.stringify(c.given), () => expect(unmatchedTokens([listCheck, isoCheck], c.given)).toEqual(c.want));
});
