/** Identifiers of new records (D-90): UUID version 7 (RFC 9562 §5.7), time-ordered, so that each insert lands at the end of its primary-key index instead of on a random page of it. */
import { randomFillSync } from "node:crypto";

/** Random bytes drawn 256 ids at a time: one call to the system's generator per id cost more than the rest of the id. */
const pool = Buffer.alloc(16 * 256);
let poolOffset = pool.length;
const bytes = Buffer.alloc(16);

/** A new UUIDv7: 48 bits of Unix milliseconds, the version and variant bits, and 74 random bits. */
export function newId(nowMs: number = Date.now()): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  pool.copy(bytes, 0, poolOffset, poolOffset + 16);
  poolOffset += 16;
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
