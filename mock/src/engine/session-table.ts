/**
 * The sandbox's sessions by `X-Mock-Session` id, each owned by the key that made it (D-272): at most
 * `maxSessionsPerKey` per key (a further one drops that key's least recently used) and `maxSessions` in all; a
 * full table drops the least recently used session of the keys holding the most, so a key holding none always
 * gets its session and no new session is ever refused.
 */

/** How many sessions the sandbox keeps. */
export interface SessionPolicy {
  /** Sessions kept at once, all keys together. */
  maxSessions: number;
  /** Sessions one key may own: a further one drops that key's least recently used. */
  maxSessionsPerKey: number;
}

/** The one policy of every sandbox, on a port or in-process (D-272). */
export const sandboxPolicy: SessionPolicy = { maxSessions: 1000, maxSessionsPerKey: 20 };

/** What the table keeps for a session besides the session itself. */
interface Entry<S> {
  session: S;
  owner: string;
}

/** Sessions made on first use and dropped by the policy; `onDrop` hears of every session that leaves the table. */
export class SessionTable<S> {
  // Map order is insertion order: re-inserting on use keeps the least recently used first, in all and per owner.
  private readonly byId = new Map<string, Entry<S>>();
  private readonly owned = new Map<string, Set<string>>();

  constructor(
    private readonly policy: SessionPolicy,
    /** Makes the session `id` for `owner` (the sandbox seeds it for that key, D-320). */
    private readonly make: (id: string, owner: string) => S,
    private readonly onDrop: (session: S) => void = () => {},
  ) {}

  /** The session `id`, made now for `owner` if new. */
  session(id: string, owner: string): S {
    const found = this.byId.get(id);
    if (found) {
      this.touch(id, found);
      return found.session;
    }
    const mine = this.owned.get(owner);
    if (mine && mine.size >= this.policy.maxSessionsPerKey) this.drop(mine.values().next().value as string);
    else if (this.byId.size >= this.policy.maxSessions) this.drop(this.leastRecentOfTheLargestOwner());
    const entry = { session: this.make(id, owner), owner };
    this.byId.set(id, entry);
    this.ownedBy(owner).add(id);
    return entry.session;
  }

  /** Who made the session `id`, or undefined when there is none. */
  ownerOf(id: string): string | undefined {
    return this.byId.get(id)?.owner;
  }

  /** Drops one session; the next request under its id starts a new one. */
  drop(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    const mine = this.owned.get(entry.owner);
    mine?.delete(id);
    if (mine?.size === 0) this.owned.delete(entry.owner);
    this.onDrop(entry.session);
  }

  /** Each session with its id and owner, least recently used first. */
  *entries(): IterableIterator<[id: string, owner: string, session: S]> {
    for (const [id, entry] of this.byId) yield [id, entry.owner, entry.session];
  }

  /** Drops every session. */
  clear(): void {
    for (const id of [...this.byId.keys()]) this.drop(id);
  }

  get size(): number {
    return this.byId.size;
  }

  private touch(id: string, entry: Entry<S>): void {
    this.byId.delete(id);
    this.byId.set(id, entry);
    const mine = this.ownedBy(entry.owner);
    mine.delete(id);
    mine.add(id);
  }

  private ownedBy(owner: string): Set<string> {
    let mine = this.owned.get(owner);
    if (!mine) {
      mine = new Set();
      this.owned.set(owner, mine);
    }
    return mine;
  }

  /** The least recently used session among the owners holding the most sessions. */
  private leastRecentOfTheLargestOwner(): string {
    let most = 0;
    for (const ids of this.owned.values()) most = Math.max(most, ids.size);
    for (const [id, entry] of this.byId) if (this.owned.get(entry.owner)?.size === most) return id;
    throw new Error("a full session table has sessions");
  }
}
