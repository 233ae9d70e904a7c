/** The session policy (D-272, D-470, D-471): per-key caps, a full table refusing rather than dropping another key's session, idle expiry, a cap per address, drops reported once. */
import { describe, expect, it } from "vitest";
import { type SessionPolicy, SessionsFull, SessionTable } from "./session-table.js";

/** A table over numbered sessions, on a clock the test moves. */
function table(policy: SessionPolicy) {
  let made = 0;
  const dropped: number[] = [];
  const clock = { now: 0 };
  const sessions = new SessionTable(
    policy,
    () => ++made,
    (session) => dropped.push(session),
    () => clock.now,
  );
  return { sessions, dropped, clock };
}

/** The session, or the SessionsFull's Retry-After seconds as `429 after N`. */
function sessionOrRefusal(
  sessions: SessionTable<number>,
  id: string,
  owner: string,
  address?: string,
): number | string {
  try {
    return sessions.session(id, owner, address);
  } catch (error) {
    if (error instanceof SessionsFull) return `429 after ${error.retryAfterSeconds}`;
    throw error;
  }
}

describe("SessionTable", () => {
  const cases: Array<{
    name: string;
    policy: SessionPolicy;
    given: string[][];
    want: Array<number | string>;
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
      name: "a full table refuses a key holding none, even when another key holds several (D-470)",
      policy: { maxSessions: 4, maxSessionsPerKey: 3 },
      given: [
        ["v", "victim"],
        ["a1", "attacker"],
        ["a2", "attacker"],
        ["o", "other"],
        ["n", "newcomer"],
      ],
      want: [1, 2, 3, 4, "429 after 60"],
      wantDropped: [],
    },
    {
      name: "sessions that never expire (an infinite idle time): a refusal says 60 s",
      policy: { maxSessions: 1, maxSessionsPerKey: 5, idleMs: Number.POSITIVE_INFINITY },
      given: [
        ["a", "k1"],
        ["a", "k2"],
      ],
      want: [1, "429 after 60"],
      wantDropped: [],
    },
    {
      name: "a full table makes room for a key from its own least recently used session",
      policy: { maxSessions: 2, maxSessionsPerKey: 5 },
      given: [
        ["a", "k1"],
        ["b", "k2"],
        ["c", "k1"],
        ["b", "k2"],
      ],
      want: [1, 2, 3, 2],
      wantDropped: [1],
    },
    {
      name: "an address holding its cap is refused; another address and in-process requests are not (D-471)",
      policy: { maxSessions: 10, maxSessionsPerKey: 5, maxSessionsPerAddress: 2 },
      given: [
        ["a", "k1", "10.0.0.1"],
        ["a", "k2", "10.0.0.1"],
        ["a", "k3", "10.0.0.1"],
        ["a", "k3", "10.0.0.2"],
        ["a", "k4"],
        ["a", "k1", "10.0.0.1"],
      ],
      want: [1, 2, "429 after 60", 3, 4, 1],
      wantDropped: [],
    },
    {
      name: "a key at its cap on its address's cap replaces its own session from that address",
      policy: { maxSessions: 10, maxSessionsPerKey: 2, maxSessionsPerAddress: 2 },
      given: [
        ["a", "k", "10.0.0.1"],
        ["b", "k", "10.0.0.1"],
        ["c", "k", "10.0.0.1"],
      ],
      want: [1, 2, 3],
      wantDropped: [1],
    },
  ];
  it.each(cases)("$name", ({ policy, given, want, wantDropped }) => {
    const { sessions, dropped } = table(policy);
    expect(given.map(([id, owner, address]) => sessionOrRefusal(sessions, id!, owner!, address))).toEqual(want);
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

  it("1,000 made-up keys, one session each, never drop the victim's only session (D-470)", () => {
    const { sessions, dropped } = table({ maxSessions: 100, maxSessionsPerKey: 20, idleMs: 60_000 });
    expect(sessions.session("default", "victim")).toBe(1);
    const refusals = new Set<number | string>();
    for (let i = 0; i < 1000; i++) {
      const answer = sessionOrRefusal(sessions, "default", `made-up-${i}`);
      if (typeof answer === "string") refusals.add(answer);
    }
    expect(dropped).toEqual([]);
    expect(sessions.size).toBe(100);
    expect(sessions.session("default", "victim")).toBe(1);
    // the refusal says when the least recently used session expires
    expect([...refusals]).toEqual(["429 after 60"]);
  });

  it("expires sessions unused for the idle time, then has room again (D-471)", () => {
    const { sessions, dropped, clock } = table({ maxSessions: 2, maxSessionsPerKey: 5, idleMs: 10_000 });
    sessions.session("a", "k1");
    clock.now = 4_000;
    sessions.session("b", "k2");
    clock.now = 9_000;
    expect(sessionOrRefusal(sessions, "c", "k3")).toBe("429 after 1");
    sessions.session("a", "k1");
    clock.now = 14_000;
    // k2's session was used last at 4,000: expired at 14,000; k1's used at 9,000 stays
    expect(sessionOrRefusal(sessions, "c", "k3")).toBe(3);
    expect(dropped).toEqual([2]);
    expect(sessions.lastOwnerOf("a")).toBe("k1");
    clock.now = 30_000;
    expect(sessions.size).toBe(0);
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

  it("past the bytes of all sessions, the key holding the most bytes among keys holding several loses its least recently used (D-396, D-470)", () => {
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

  it("past the bytes of all sessions, when every key holds one, no session is dropped and writes wait (D-470)", () => {
    const { sessions, dropped } = table({ maxSessions: 100, maxSessionsPerKey: 20, maxBytes: 100 });
    for (const owner of ["victim", "k1", "k2", "k3"]) {
      sessions.session("default", owner);
      sessions.charge("default", owner, owner === "victim" ? 60 : 20);
    }
    expect(dropped).toEqual([]);
    expect(sessions.overBytes()).toBe(true);
    sessions.drop("default", "k3");
    expect(sessions.overBytes()).toBe(false);
  });
});
