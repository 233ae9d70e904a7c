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

  it("knows the key that used an id last, and a drop frees the owner's quota", () => {
    const { sessions, dropped } = table({ maxSessions: 10, maxSessionsPerKey: 1 });
    sessions.session("a", "k");
    expect(sessions.lastOwnerOf("a")).toBe("k");
    expect(sessions.lastOwnerOf("b")).toBeUndefined();
    sessions.drop("a", "k");
    sessions.drop("a", "k");
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
    expect(sessions.lastOwnerOf("demo")).toBe("demo-key");
  });

  it("the same id under two keys is two sessions, default included (D-396)", () => {
    const { sessions } = table({ maxSessions: 10, maxSessionsPerKey: 5 });
    expect([
      sessions.session("default", "a"),
      sessions.session("default", "b"),
      sessions.session("default", "a"),
    ]).toEqual([1, 2, 1]);
    sessions.drop("default", "b");
    expect(sessions.session("default", "a")).toBe(1);
  });

  it("past the bytes of all sessions, the key holding the most bytes loses its least recently used (D-396)", () => {
    const { sessions, dropped } = table({ maxSessions: 100, maxSessionsPerKey: 20, maxBytes: 100 });
    sessions.session("v", "victim");
    sessions.charge("v", "victim", 30);
    for (const id of ["a1", "a2", "a3"]) {
      sessions.session(id, "attacker");
      sessions.charge(id, "attacker", 30);
    }
    // 120 bytes: the attacker's oldest goes, never the victim's
    expect(dropped).toEqual([2]);
    sessions.charge("a3", "attacker", 30, true);
    expect(sessions.bytesOf("v", "victim")).toBe(30);
    expect(sessions.bytesOf("a3", "attacker")).toBe(30);
  });
});
