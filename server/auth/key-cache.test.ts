/** The API-key cache (D-85): positive lookups only, expiry, size bound, shared concurrent misses. */
import { describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../domain/records.js";
import { cachedKeyLookup } from "./key-cache.js";

const record = (keyHash: string): ApiKeyRecord => ({
  id: keyHash,
  organizationId: "o",
  keyHash,
  label: "l",
  defaultTenantId: "t",
  tenantIds: ["t"],
});

function counted(known: Set<string>) {
  const calls: string[] = [];
  return { calls, lookup: async (hash: string) => (calls.push(hash), known.has(hash) ? record(hash) : undefined) };
}

describe("cachedKeyLookup", () => {
  it("reuses a found record until it expires and never caches a miss", async () => {
    let now = 0;
    const known = new Set(["a"]);
    const { calls, lookup } = counted(known);
    const cached = cachedKeyLookup(lookup, { ttlMs: 1000, maxEntries: 10, nowMs: () => now });
    expect(await cached("a")).toEqual(record("a"));
    expect(await cached("a")).toEqual(record("a"));
    expect(await cached("b")).toBeUndefined();
    known.add("b");
    expect(await cached("b")).toEqual(record("b"));
    expect(calls).toEqual(["a", "b", "b"]);
    now = 1000;
    known.delete("a");
    expect(await cached("a")).toBeUndefined();
    expect(calls).toEqual(["a", "b", "b", "a"]);
  });

  it("holds at most maxEntries, dropping the oldest", async () => {
    const { calls, lookup } = counted(new Set(["a", "b", "c"]));
    const cached = cachedKeyLookup(lookup, { ttlMs: 60_000, maxEntries: 2, nowMs: () => 0 });
    for (const hash of ["a", "b", "c", "c", "b", "a"]) await cached(hash);
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });

  it("shares one lookup between concurrent misses", async () => {
    const { calls, lookup } = counted(new Set(["a"]));
    const cached = cachedKeyLookup(lookup, { ttlMs: 1000, maxEntries: 10 });
    await Promise.all([cached("a"), cached("a"), cached("a")]);
    expect(calls).toEqual(["a"]);
  });
});
