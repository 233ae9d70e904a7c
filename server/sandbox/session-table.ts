/** The sandbox's sessions by `X-Mock-Session` id, bounded per key and in all, the least recently used first to go (D-114, D-172). */

/** How many sessions a sandbox keeps, and when a full sandbox may drop one for a new session. */
export interface SessionPolicy {
  /** Sessions kept at once, all keys together. */
  maxSessions: number;
  /** Sessions one API key may have: a further one drops that key's least recently used. */
  maxSessionsPerKey: number;
  /** When full, the least recently used session makes room only if unused this long; a new session is refused before that. */
  idleSessionMs: number;
}

/** A network sandbox serves many callers: a full sandbox refuses rather than drop a session in use (D-114). */
export const sharedSandboxPolicy: SessionPolicy = {
  maxSessions: 1000,
  maxSessionsPerKey: 20,
  idleSessionMs: 15 * 60_000,
};

/** An in-process sandbox serves one test run: a full sandbox drops its least recently used session (D-172). */
export const inProcessSandboxPolicy: SessionPolicy = {
  maxSessions: 100,
  maxSessionsPerKey: Number.POSITIVE_INFINITY,
  idleSessionMs: 0,
};

/** What the table keeps for a session besides the session itself. */
interface Entry<S> {
  session: S;
  owner: string;
  lastUsedMs: number;
}

/** Sessions made on first use and dropped by the policy; `onDrop` hears of every session that leaves the table. */
export class SessionTable<S> {
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, Entry<S>>();

  constructor(
    private readonly policy: SessionPolicy,
    private readonly make: () => S,
    private readonly onDrop: (session: S) => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The session `id` made by `owner`, made now if new; undefined when the table is full of sessions in recent use. */
  session(id: string, owner: string): S | undefined {
    const now = this.now();
    const found = this.entries.get(id);
    if (found) {
      this.entries.delete(id);
      this.entries.set(id, found);
      found.lastUsedMs = now;
      return found.session;
    }
    const owned = [...this.entries].filter(([, entry]) => entry.owner === owner);
    if (owned.length >= this.policy.maxSessionsPerKey) {
      this.drop(owned[0]![0]);
    } else if (this.entries.size >= this.policy.maxSessions) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, Entry<S>];
      if (now - oldest.lastUsedMs < this.policy.idleSessionMs) return undefined;
      this.drop(oldestId);
    }
    const session = this.make();
    this.entries.set(id, { session, owner, lastUsedMs: now });
    return session;
  }

  /** Drops one session; the next request under its id starts a new one. */
  drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.onDrop(entry.session);
  }

  /** Drops every session and returns them. */
  clear(): S[] {
    const sessions = [...this.entries.values()].map((entry) => entry.session);
    for (const id of [...this.entries.keys()]) this.drop(id);
    return sessions;
  }

  get size(): number {
    return this.entries.size;
  }
}
