/** Tests of the CPU-profile summary used to explain missed targets (tools/bench/profile.ts). */
import { describe, expect, it } from "vitest";
import { repoRoot } from "../harness/reference.js";
import { selfTimes } from "./profile.js";

describe("selfTimes", () => {
  it("adds each sample's time to its function and to its file or package", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 } },
        {
          id: 2,
          callFrame: {
            functionName: "listDeployments",
            url: `file://${repoRoot}/server/storage/sqlite-store.ts`,
            lineNumber: 7,
          },
        },
        {
          id: 3,
          callFrame: {
            functionName: "validate",
            url: `file://${repoRoot}/node_modules/ajv/dist/core.js`,
            lineNumber: 0,
          },
        },
        {
          id: 4,
          callFrame: {
            functionName: "compile",
            url: `file://${repoRoot}/node_modules/@scope/pkg/lib/x.js`,
            lineNumber: 2,
          },
        },
      ],
      samples: [2, 2, 3, 4, 1],
      timeDeltas: [1000, 3000, 2000, 500, 500],
    };
    const times = selfTimes(profile);
    expect(times.totalMs).toBe(7);
    expect(times.byFunction[0]).toEqual(["listDeployments server/storage/sqlite-store.ts:8", 4]);
    expect(Object.fromEntries(times.byFile)).toEqual({
      "server/storage/sqlite-store.ts": 4,
      "node_modules/ajv": 2,
      "node_modules/@scope/pkg": 0.5,
      "((root))": 0.5,
    });
  });
});
