/** A bounded, short-lived cache of API-key hash → key record (D-85): known keys only, so a new key works at once and an unknown one is asked every time. */
import type { ApiKeyRecord } from "../domain/records.js";
import type { Store } from "../storage/store.js";

interface KeyCacheOptions {
  /** How long a found record is reused. */
  ttlMs: number;
  /** At most this many records; the oldest entry goes first. */
  maxEntries: number;
  /** Milliseconds of a monotonic clock; tests may move it. */
  nowMs?: () => number;
}

/** Wraps a lookup by key hash with the cache; concurrent misses of one hash share one lookup. */
export function cachedKeyLookup(
  lookup: (keyHash: string) => Promise<ApiKeyRecord | undefined>,
  options: KeyCacheOptions,
): (keyHash: string) => Promise<ApiKeyRecord | undefined> {
  const nowMs = options.nowMs ?? (() => performance.now());
  const entries = new Map<string, { record: ApiKeyRecord; expiresAtMs: number }>();
  const pending = new Map<string, Promise<ApiKeyRecord | undefined>>();
  return async (keyHash) => {
    const entry = entries.get(keyHash);
    if (entry && entry.expiresAtMs > nowMs()) return entry.record;
    if (entry) entries.delete(keyHash);
    let found = pending.get(keyHash);
    if (!found) {
      found = lookup(keyHash).finally(() => pending.delete(keyHash));
      pending.set(keyHash, found);
    }
    const record = await found;
    if (record && !entries.has(keyHash)) {
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(keyHash, { record, expiresAtMs: nowMs() + options.ttlMs });
    }
    return record;
  };
}

/** The store's key lookup behind the cache, with a running server's settings (D-85). */
export function cachedKeys(store: Pick<Store, "findApiKeyByHash">): Pick<Store, "findApiKeyByHash"> {
  // Keys are never changed in place; a short life bounds how long any later revocation could lag (D-85).
  return {
    findApiKeyByHash: cachedKeyLookup((keyHash) => store.findApiKeyByHash(keyHash), {
      ttlMs: 10_000,
      maxEntries: 1000,
    }),
  };
}
