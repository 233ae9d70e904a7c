/** API keys (D-13 to D-15): generated with 160 random bits, stored only as a SHA-256 hash. */
import { createHash, randomBytes } from "node:crypto";

/** SHA-256 suffices: keys are long random strings, not guessable passwords. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new key, shown once to whoever creates it. */
export function generateApiKey(): string {
  return `dk_live_${randomBytes(20).toString("hex")}`;
}
