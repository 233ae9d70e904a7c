/**
 * The sandbox's sessions, each named by its `X-Mock-Session` id within the key that made it (D-272, D-396): another
 * key sending the same id, `default` included, gets a session of its own, so no key reaches, fills or locks
 * another's. At most `maxSessionsPerKey` per key (a further one drops that key's least recently used),
 * `maxSessions` and `maxBytes` in all: a full table drops the least recently used session of the key holding the
 * most (sessions, or bytes), so a key holding none always gets its session and no new session is ever refused.
 */

/** How many sessions, and how many bytes of them, the sandbox keeps. */
export interface SessionPolicy {
  /** Sessions kept at once, all keys together. */
  maxSessions: number;
  /** Sessions one key may own: a further one drops that key's least recently used. */
  maxSessionsPerKey: number;
  /** Bytes charged to all sessions together (writes' answers, states put, D-396); unbounded when absent. */
  maxBytes?: number;
}

/** The one policy of every sandbox, on a port or in-process (D-272, D-396). */
export const sandboxPolicy: Required<SessionPolicy> = {
  maxSessions: 1000,
  maxSessionsPerKey: 20,
  maxBytes: 128 * 1024 * 1024,
};

/** What the table keeps for a session besides the session itself. */
interface Entry<S> {
  id: string;
  owner: string;
  session: S;
  /** Bytes charged to the session so far. */
  bytes: number;
}

/** Sessions made on first use and dropped by the policy; `onDrop` hears of every session that leaves the table. */
export class SessionTable<S> {
  // Map order is insertion order: re-inserting on use keeps the least recently used first, in all and per owner.
  private readonly byName = new Map<string, Entry<S>>();
  private readonly owned = new Map<string, Set<string>>();
  private bytes = 0;

  constructor(
    private readonly policy: SessionPolicy,
    /** Makes the session `id` for `owner` (the sandbox seeds it for that key, D-320). */
    private readonly make: (id: string, owner: string) => S,
    private readonly onDrop: (session: S) => void = () => {},
  ) {}

  /** The session `id` of `owner`, made now if new. */
  session(id: string, owner: string): S {
    const name = nameOf(id, owner);
    const found = this.byName.get(name);
    if (found) {
      this.touch(name, found);
      return found.session;
    }
    const mine = this.owned.get(owner);
    if (mine && mine.size >= this.policy.maxSessionsPerKey) this.dropNamed(mine.values().next().value as string);
    else if (this.byName.size >= this.policy.maxSessions) this.dropNamed(this.leastRecentOfTheLargestOwner("count"));
    const entry = { id, owner, session: this.make(id, owner), bytes: 0 };
    this.byName.set(name, entry);
    this.ownedBy(owner).add(name);
    return entry.session;
  }

  /** The key whose session `id` was used last, or undefined when no key has one (the in-process API names no key). */
  lastOwnerOf(id: string): string | undefined {
    let owner: string | undefined;
    for (const entry of this.byName.values()) if (entry.id === id) owner = entry.owner;
    return owner;
  }

  /** Bytes charged to `owner`'s session `id`. */
  bytesOf(id: string, owner: string): number {
    return this.byName.get(nameOf(id, owner))?.bytes ?? 0;
  }

  /**
   * Charges `bytes` to `owner`'s session `id` (`replace`: its bytes become `bytes`, as a state put replaces the
   * state), then drops other sessions, from the key holding the most bytes, until the table is within `maxBytes`.
   */
  charge(id: string, owner: string, bytes: number, replace = false): void {
    const name = nameOf(id, owner);
    const entry = this.byName.get(name);
    if (!entry) return;
    this.bytes += replace ? bytes - entry.bytes : bytes;
    entry.bytes = replace ? bytes : entry.bytes + bytes;
    const max = this.policy.maxBytes;
    if (max === undefined) return;
    while (this.bytes > max && this.byName.size > 1) this.dropNamed(this.leastRecentOfTheLargestOwner("bytes", name));
  }

  /** Drops `owner`'s session `id`; the next request under its id starts a new one. */
  drop(id: string, owner: string): void {
    this.dropNamed(nameOf(id, owner));
  }

  /** Each session with its id and owner, least recently used first. */
  *entries(): IterableIterator<[id: string, owner: string, session: S]> {
    for (const entry of this.byName.values()) yield [entry.id, entry.owner, entry.session];
  }

  /** Drops every session. */
  clear(): void {
    for (const name of [...this.byName.keys()]) this.dropNamed(name);
  }

  get size(): number {
    return this.byName.size;
  }

  private dropNamed(name: string): void {
    const entry = this.byName.get(name);
    if (!entry) return;
    this.byName.delete(name);
    this.bytes -= entry.bytes;
    const mine = this.owned.get(entry.owner);
    mine?.delete(name);
    if (mine?.size === 0) this.owned.delete(entry.owner);
    this.onDrop(entry.session);
  }

  private touch(name: string, entry: Entry<S>): void {
    this.byName.delete(name);
    this.byName.set(name, entry);
    const mine = this.ownedBy(entry.owner);
    mine.delete(name);
    mine.add(name);
  }

  private ownedBy(owner: string): Set<string> {
    let mine = this.owned.get(owner);
    if (!mine) {
      mine = new Set();
      this.owned.set(owner, mine);
    }
    return mine;
  }

  /** The least recently used session (but `spare`) among the owners holding the most sessions, or the most bytes. */
  private leastRecentOfTheLargestOwner(by: "count" | "bytes", spare?: string): string {
    const weight = (owner: string): number => {
      const names = this.owned.get(owner) ?? new Set<string>();
      if (by === "count") return names.size;
      let sum = 0;
      for (const name of names) if (name !== spare) sum += this.byName.get(name)!.bytes;
      return sum;
    };
    let most = -1;
    for (const owner of this.owned.keys()) most = Math.max(most, weight(owner));
    for (const [name, entry] of this.byName) if (name !== spare && weight(entry.owner) === most) return name;
    throw new Error("a full session table has sessions");
  }
}

/** A session's name in the table: its owner and its id, so equal ids of two keys are two sessions (D-396). */
function nameOf(id: string, owner: string): string {
  return `${owner}\n${id}`;
}
