/**
 * The sandbox's sessions, each named by its `X-Mock-Session` id within the key that made it (D-272, D-396): another
 * key sending the same id, `default` included, gets a session of its own, so no key reaches, fills or locks
 * another's. At most `maxSessionsPerKey` per key (a further one drops that key's least recently used) and
 * `maxSessions` in all; a full table drops only the asking key's own least recently used session and otherwise
 * refuses (SessionsFull, a 429), never another key's session (D-470). Sessions unused for `idleMs` expire, and one
 * client address holds at most `maxSessionsPerAddress` (D-471). Past `maxBytes` in all, the key holding the most bytes
 * among those holding more than one session loses its least recently used; when no key holds more than one, writes
 * wait for room (D-470).
 */

/** How many sessions, and how many bytes of them, the sandbox keeps, and for how long. */
export interface SessionPolicy {
  /** Sessions kept at once, all keys together. */
  maxSessions: number;
  /** Sessions one key may own: a further one drops that key's least recently used. */
  maxSessionsPerKey: number;
  /** Bytes charged to all sessions together (writes' answers, states put, D-396); unbounded when absent. */
  maxBytes?: number;
  /** Milliseconds a session may go unused before it expires (D-471); never when absent or infinite. */
  idleMs?: number;
  /** Sessions made from one client address and still kept (D-471); unbounded when absent (in-process, no address). */
  maxSessionsPerAddress?: number;
}

/** The one policy of every sandbox, on a port or in-process (D-272, D-396, D-471). */
export const sandboxPolicy: Required<SessionPolicy> = {
  maxSessions: 1000,
  maxSessionsPerKey: 20,
  maxBytes: 128 * 1024 * 1024,
  idleMs: 30 * 60 * 1000,
  maxSessionsPerAddress: 200,
};

/** A new session refused for want of room (D-470, D-471): answered 429 with `Retry-After`. */
export class SessionsFull extends Error {
  constructor(
    message: string,
    /** Seconds until a session that holds the room expires (60 when sessions never expire). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "SessionsFull";
  }
}

/** What the table keeps for a session besides the session itself. */
interface Entry<S> {
  id: string;
  owner: string;
  /** The client address that made it, when it came over the network. */
  address?: string;
  session: S;
  /** Bytes charged to the session so far. */
  bytes: number;
  /** When it was last used (the table's clock). */
  usedAt: number;
}

/** Sessions made on first use and dropped by the policy; `onDrop` hears of every session that leaves the table. */
export class SessionTable<S> {
  // Map order is insertion order: re-inserting on use keeps the least recently used first, in all and per owner.
  private readonly byName = new Map<string, Entry<S>>();
  private readonly owned = new Map<string, Set<string>>();
  private readonly perAddress = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly policy: SessionPolicy,
    /** Makes the session `id` for `owner` (the sandbox seeds it for that key, D-320). */
    private readonly make: (id: string, owner: string) => S,
    private readonly onDrop: (session: S) => void = () => {},
    /** Milliseconds now; tests pass their own. */
    private readonly now: () => number = Date.now,
  ) {}

  /** The session `id` of `owner`, made now if new (from `address`, when it came over the network); SessionsFull when there is no room. */
  session(id: string, owner: string, address?: string): S {
    this.expireIdle();
    const name = nameOf(id, owner);
    const found = this.byName.get(name);
    if (found) {
      this.touch(name, found);
      return found.session;
    }
    const mine = this.owned.get(owner);
    const full = this.byName.size >= this.policy.maxSessions;
    // Room is made only from the asking key's own sessions: never another key's (D-470).
    const own =
      mine && (mine.size >= this.policy.maxSessionsPerKey || full) ? (mine.values().next().value as string) : undefined;
    if (full && own === undefined)
      throw new SessionsFull(
        `The mock holds its ${this.policy.maxSessions} sessions, each another key's; try again when one expires, or reuse a session of your key.`,
        this.retryAfter(this.byName.values().next().value),
      );
    const max = this.policy.maxSessionsPerAddress;
    if (address !== undefined && max !== undefined && (this.perAddress.get(address) ?? 0) >= max) {
      const freed = own !== undefined && this.byName.get(own)?.address === address;
      if (!freed)
        throw new SessionsFull(
          `Your address holds its ${max} mock sessions; reuse one, delete one (DELETE /__mock/sessions/<id>), or try again when one expires.`,
          this.retryAfter(this.leastRecentFrom(address)),
        );
    }
    if (own !== undefined) this.dropNamed(own);
    const entry: Entry<S> = { id, owner, address, session: this.make(id, owner), bytes: 0, usedAt: this.now() };
    this.byName.set(name, entry);
    this.ownedBy(owner).add(name);
    if (address !== undefined) this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
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
   * state), then drops other sessions, from the key holding the most bytes among keys holding more than one session,
   * until the table is within `maxBytes` or no such session is left (then `overBytes` refuses writes, D-470).
   */
  charge(id: string, owner: string, bytes: number, replace = false): void {
    const name = nameOf(id, owner);
    const entry = this.byName.get(name);
    if (!entry) return;
    this.bytes += replace ? bytes - entry.bytes : bytes;
    entry.bytes = replace ? bytes : entry.bytes + bytes;
    while (this.overBytes()) {
      const victim = this.leastRecentOfTheHeaviestSharer(name);
      if (victim === undefined) return;
      this.dropNamed(victim);
    }
  }

  /** Whether the sessions hold more than `maxBytes` together: a write waits for room (D-470). */
  overBytes(): boolean {
    return this.policy.maxBytes !== undefined && this.bytes > this.policy.maxBytes;
  }

  /** Seconds until the least recently used session expires, for a `Retry-After` when the bytes are spent. */
  secondsUntilRoom(): number {
    return this.retryAfter(this.byName.values().next().value);
  }

  /** Drops `owner`'s session `id`; the next request under its id starts a new one. */
  drop(id: string, owner: string): void {
    this.dropNamed(nameOf(id, owner));
  }

  /** Each session with its id and owner, least recently used first. */
  *entries(): IterableIterator<[id: string, owner: string, session: S]> {
    this.expireIdle();
    for (const entry of [...this.byName.values()]) yield [entry.id, entry.owner, entry.session];
  }

  /** Drops every session. */
  clear(): void {
    for (const name of [...this.byName.keys()]) this.dropNamed(name);
  }

  get size(): number {
    this.expireIdle();
    return this.byName.size;
  }

  /** Drops the sessions unused for `idleMs`, least recently used first (the front of the map). */
  private expireIdle(): void {
    const idle = this.policy.idleMs;
    if (idle === undefined) return;
    const now = this.now();
    for (const [name, entry] of this.byName) {
      if (now - entry.usedAt < idle) return;
      this.dropNamed(name);
    }
  }

  /** Seconds until `entry` expires, at least 1; 60 when sessions never expire. */
  private retryAfter(entry: Entry<S> | undefined): number {
    const idle = this.policy.idleMs;
    if (idle === undefined || !Number.isFinite(idle) || entry === undefined) return 60;
    return Math.max(1, Math.ceil((entry.usedAt + idle - this.now()) / 1000));
  }

  private leastRecentFrom(address: string): Entry<S> | undefined {
    for (const entry of this.byName.values()) if (entry.address === address) return entry;
    return undefined;
  }

  private dropNamed(name: string): void {
    const entry = this.byName.get(name);
    if (!entry) return;
    this.byName.delete(name);
    this.bytes -= entry.bytes;
    const mine = this.owned.get(entry.owner);
    mine?.delete(name);
    if (mine?.size === 0) this.owned.delete(entry.owner);
    if (entry.address !== undefined) {
      const left = (this.perAddress.get(entry.address) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(entry.address);
      else this.perAddress.set(entry.address, left);
    }
    this.onDrop(entry.session);
  }

  private touch(name: string, entry: Entry<S>): void {
    entry.usedAt = this.now();
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

  /**
   * The least recently used session (but `spare`) of the key holding the most bytes among keys that keep another
   * session after it (the key of `spare` counts `spare` as one), or undefined when every other key holds one.
   */
  private leastRecentOfTheHeaviestSharer(spare: string): string | undefined {
    let heaviest: string | undefined;
    let most = -1;
    for (const [owner, names] of this.owned) {
      if (names.size < 2) continue;
      let sum = 0;
      for (const name of names) if (name !== spare) sum += this.byName.get(name)!.bytes;
      if (sum > most) {
        most = sum;
        heaviest = owner;
      }
    }
    if (heaviest === undefined) return undefined;
    for (const name of this.owned.get(heaviest)!) if (name !== spare) return name;
    return undefined;
  }
}

/** A session's name in the table: its owner and its id, so equal ids of two keys are two sessions (D-396). */
function nameOf(id: string, owner: string): string {
  return `${owner}\n${id}`;
}
