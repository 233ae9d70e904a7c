/** AES-256-GCM encryption of secrets at rest (D-54, D-55): client_secret and deployment secret values, bound to their row by associated data (D-118). */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** v1: no associated data (before D-118); v2: the value's context as associated data. */
const unbound = "v1";
const bound = "v2";
/** The GCM tag is 16 bytes, pinned when opening (D-281): a shorter tag would be checked only on its own bytes, easier to forge. */
const tagBytes = 16;
/** The IV is 12 bytes (96 bits), as sealed. */
const ivBytes = 12;

/** Encrypts and decrypts short strings with one 32-byte key. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("encryption key must be 32 bytes");
  }

  /**
   * `v2.<iv>.<tag>.<ciphertext>` in base64url with the context as associated data (D-118), or `v1.…` without
   * a context; a fresh 96-bit IV each time.
   */
  encrypt(plaintext: string, context?: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    if (context !== undefined) cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      context === undefined ? unbound : bound,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      ciphertext.toString("base64url"),
    ].join(".");
  }

  /** Throws when the value was not sealed with this key and this context, or was altered. */
  decrypt(sealed: string, context?: string): string {
    const [format, iv, tag, ciphertext] = sealed.split(".");
    if ((format !== unbound && format !== bound) || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error("not a sealed value");
    }
    if ((format === bound) !== (context !== undefined))
      throw new Error(format === bound ? "a bound value needs its context" : "an unbound value has no context");
    const ivBuffer = Buffer.from(iv, "base64url");
    const tagBuffer = Buffer.from(tag, "base64url");
    if (ivBuffer.length !== ivBytes || tagBuffer.length !== tagBytes) throw new Error("not a sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, ivBuffer, { authTagLength: tagBytes });
    if (context !== undefined) decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(tagBuffer);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
