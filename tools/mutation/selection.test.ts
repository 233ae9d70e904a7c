import { describe, expect, it } from "vitest";
import { changedRanges, inScope, mutateForChanges, mutatesLine, type Scope } from "./selection.js";

const scope: Scope = {
  include: ["server/rules/**/*.ts", "mock/src/engine/**/*.ts"],
  exclude: [{ glob: "**/*.test.ts", reason: "tests" }],
  sample: ["server/rules/deployment-name.ts:1-10"],
};

describe("inScope", () => {
  const cases = [
    { file: "server/rules/secrets.ts", want: true },
    { file: "server/rules/secrets.test.ts", want: false },
    { file: "server/logging.ts", want: false },
    { file: "mock/src/engine/memory-sandbox.ts", want: true },
  ];
  for (const { file, want } of cases) it(file, () => expect(inScope(scope, file)).toBe(want));
});

describe("changedRanges", () => {
  it("reads the new side of every hunk, and skips pure deletions and deleted files", () => {
    const diff = [
      "diff --git a/server/rules/secrets.ts b/server/rules/secrets.ts",
      "--- a/server/rules/secrets.ts",
      "+++ b/server/rules/secrets.ts",
      "@@ -3 +3 @@ x",
      "@@ -10,2 +11,4 @@ y",
      "@@ -20,3 +22,0 @@ z",
      "diff --git a/server/rules/gone.ts b/server/rules/gone.ts",
      "--- a/server/rules/gone.ts",
      "+++ /dev/null",
      "@@ -1,5 +0,0 @@",
    ].join("\n");
    expect(changedRanges(diff)).toEqual([
      {
        file: "server/rules/secrets.ts",
        ranges: [
          [3, 3],
          [11, 14],
        ],
      },
    ]);
  });
});

describe("mutateForChanges", () => {
  const cases: {
    name: string;
    changed: { file: string; ranges: [number, number][] }[];
    maxLines: number;
    want: { mutate: string[]; lines: number; cut: boolean; sampled: boolean };
  }[] = [
    {
      name: "changed lines of files in scope, as line ranges",
      changed: [
        { file: "server/rules/secrets.ts", ranges: [[3, 5]] },
        { file: "server/logging.ts", ranges: [[1, 9]] },
      ],
      maxLines: 100,
      want: { mutate: ["server/rules/secrets.ts:3-5"], lines: 3, cut: false, sampled: false },
    },
    {
      name: "cut at the line budget",
      changed: [
        {
          file: "server/rules/secrets.ts",
          ranges: [
            [1, 4],
            [10, 20],
            [30, 31],
          ],
        },
      ],
      maxLines: 6,
      want: {
        mutate: ["server/rules/secrets.ts:1-4", "server/rules/secrets.ts:10-11"],
        lines: 6,
        cut: true,
        sampled: false,
      },
    },
    {
      name: "the sample when nothing in scope changed",
      changed: [{ file: "README.md", ranges: [[1, 2]] }],
      maxLines: 100,
      want: { mutate: ["server/rules/deployment-name.ts:1-10"], lines: 0, cut: false, sampled: true },
    },
  ];
  for (const { name, changed, maxLines, want } of cases)
    it(name, () => expect(mutateForChanges(scope, changed, maxLines)).toEqual(want));
});

describe("mutatesLine", () => {
  const cases: { given: { mutate?: string[]; file: string; line: number }; want: boolean }[] = [
    { given: { file: "server/rules/secrets.ts", line: 5 }, want: true },
    { given: { file: "server/rules/secrets.test.ts", line: 5 }, want: false },
    { given: { mutate: ["server/rules/secrets.ts:4-6"], file: "server/rules/secrets.ts", line: 4 }, want: true },
    { given: { mutate: ["server/rules/secrets.ts:4-6"], file: "server/rules/secrets.ts", line: 7 }, want: false },
    { given: { mutate: ["server/rules/secrets.ts:4:3-6:9"], file: "server/rules/secrets.ts", line: 6 }, want: true },
    { given: { mutate: ["server/rules/secrets.ts:4-6"], file: "server/rules/names.ts", line: 5 }, want: false },
    { given: { mutate: ["server/rules/**/*.ts"], file: "server/rules/names.ts", line: 500 }, want: true },
    { given: { mutate: ["mock/src/**/*.ts"], file: "server/rules/names.ts", line: 5 }, want: false },
  ];
  for (const { given, want } of cases)
    it(`${given.mutate?.join(",") ?? "the full run"} at ${given.file}:${given.line}`, () =>
      expect(mutatesLine(scope, given.mutate, given.file, given.line)).toBe(want));
});
