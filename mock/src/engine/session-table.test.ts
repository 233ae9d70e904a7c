/** The session policy (D-272): per-key caps, a full table shedding from the keys holding the most, owners, drops reported once. */
import { describe, expect, it } from "vitest";
import { type SessionPolicy, SessionTable } from "./session-table.js";

/** A table over numbered sessions. */
function table(policy: SessionPolicy) {
  let made = 0;
  const dropped: number[] = [];
  const sessions = new SessionTable(
    policy,
    () => ++made,
    (session) => dropped.push(session),
  );
  return { sessions, dropped };
}

describe("SessionTable", () => {
  const cases: Array<{
    name: string;
    policy: SessionPolicy;
    given: Array<[string, string]>;
    want: number[];
    wantDropped: number[];
  }> = [
    {
      name: "an id seen again is the same session",
      policy: { maxSessions: 3, maxSessionsPerKey: 2 },
      given: [
        ["a", "k"],
        ["a", "k"],
      ],
      want: [1, 1],
      wantDropped: [],
    },
    {
      name: "a key past its cap drops its own least recently used",
      policy: { maxSessions: 3, maxSessionsPerKey: 2 },
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
      name: "a full table sheds the least recently used session of the key holding the most",
      policy: { maxSessions: 4, maxSessionsPerKey: 3 },
      given: [
        ["v", "victim"],
        ["a1", "attacker"],
        ["a2", "attacker"],
        ["o", "other"],
        ["n", "newcomer"],
      ],
      want: [1, 2, 3, 4, 5],
      wantDropped: [2],
    },
    {
      name: "between keys holding as many, the least recently used goes",
      policy: { maxSessions: 2, maxSessionsPerKey: 5 },
      given: [
        ["a", "k1"],
        ["b", "k2"],
        ["a", "k1"],
        ["c", "k3"],
      ],
      want: [1, 2, 1, 3],
      wantDropped: [2],
    },
  ];
  it.each(cases)("$name", ({ policy, given, want, wantDropped }) => {
    const { sessions, dropped } = table(policy);
    expect(given.map(([id, owner]) => sessions.session(id, owner))).toEqual(want);
    expect(dropped).toEqual(wantDropped);
  });

  it("knows each session's owner, and a drop frees the owner's quota", () => {
    const { sessions, dropped } = table({ maxSessions: 10, maxSessionsPerKey: 1 });
    sessions.session("a", "k");
    expect(sessions.ownerOf("a")).toBe("k");
    expect(sessions.ownerOf("b")).toBeUndefined();
    sessions.drop("a");
    sessions.drop("a");
    expect(dropped).toEqual([1]);
    sessions.session("b", "k");
    expect(dropped).toEqual([1]);
    sessions.clear();
    expect(sessions.size).toBe(0);
  });

  it("1,200 keys never lock out a key that holds no session", () => {
    const { sessions } = table({ maxSessions: 100, maxSessionsPerKey: 20 });
    for (let i = 0; i < 1200; i++) sessions.session(`s-${i}`, `made-up-${i}`);
    expect(sessions.size).toBe(100);
    expect(sessions.session("demo", "demo-key")).toBe(1201);
    expect(sessions.ownerOf("demo")).toBe("demo-key");
  });
});
