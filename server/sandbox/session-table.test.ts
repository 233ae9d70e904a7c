/** The two session policies on one table: per-key caps, a full table refusing or making room, drops reported once. */
import { describe, expect, it } from "vitest";
import { type SessionPolicy, SessionTable } from "./session-table.js";

/** A table over numbered sessions with a clock the test moves. */
function table(policy: SessionPolicy) {
  let clock = 0;
  let made = 0;
  const dropped: number[] = [];
  const sessions = new SessionTable(
    policy,
    () => ++made,
    (session) => dropped.push(session),
    () => clock,
  );
  return { sessions, dropped, tick: (ms: number) => (clock += ms) };
}

const shared: SessionPolicy = { maxSessions: 3, maxSessionsPerKey: 2, idleSessionMs: 1000 };
const inProcess: SessionPolicy = { maxSessions: 2, maxSessionsPerKey: Number.POSITIVE_INFINITY, idleSessionMs: 0 };

describe("SessionTable", () => {
  const cases: Array<{
    name: string;
    policy: SessionPolicy;
    given: Array<[string, string, number?]>;
    want: Array<number | undefined>;
    wantDropped: number[];
  }> = [
    {
      name: "an id seen again is the same session",
      policy: shared,
      given: [
        ["a", "k"],
        ["a", "k"],
      ],
      want: [1, 1],
      wantDropped: [],
    },
    {
      name: "a key past its cap drops its own least recently used",
      policy: shared,
      given: [
        ["a", "k"],
        ["b", "k"],
        ["a", "k"],
        ["c", "k"],
      ],
      want: [1, 2, 1, 3],
      wantDropped: [2],
    },
    {
      name: "a full shared table refuses while its oldest is recent",
      policy: shared,
      given: [
        ["a", "k1"],
        ["b", "k2"],
        ["c", "k3"],
        ["d", "k4", 999],
      ],
      want: [1, 2, 3, undefined],
      wantDropped: [],
    },
    {
      name: "a full shared table drops its oldest once idle long enough",
      policy: shared,
      given: [
        ["a", "k1"],
        ["b", "k2"],
        ["c", "k3"],
        ["d", "k4", 1000],
      ],
      want: [1, 2, 3, 4],
      wantDropped: [1],
    },
    {
      name: "an in-process table always makes room",
      policy: inProcess,
      given: [
        ["a", "k"],
        ["b", "k"],
        ["c", "k"],
      ],
      want: [1, 2, 3],
      wantDropped: [1],
    },
  ];
  for (const { name, policy, given, want, wantDropped } of cases) {
    it(name, () => {
      const { sessions, dropped, tick } = table(policy);
      expect(given.map(([id, owner, wait = 0]) => (tick(wait), sessions.session(id, owner)))).toEqual(want);
      expect(dropped).toEqual(wantDropped);
    });
  }

  it("drop and clear report each session once and leave the table empty", () => {
    const { sessions, dropped } = table(shared);
    sessions.session("a", "k1");
    sessions.session("b", "k2");
    sessions.drop("a");
    sessions.drop("a");
    expect(sessions.clear()).toEqual([2]);
    expect(dropped).toEqual([1, 2]);
    expect(sessions.size).toBe(0);
  });
});
