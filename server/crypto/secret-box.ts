/** AES-256-GCM encryption of secrets at rest (D-54, D-55): client_secret and deployment secret values. */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const version = "v1";

/** Encrypts and decrypts short strings with one 32-byte key. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("encryption key must be 32 bytes");
  }

  /** `v1.<iv>.<tag>.<ciphertext>` in base64url; a fresh 96-bit IV each time. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      version,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      ciphertext.toString("base64url"),
    ].join(".");
  }

  /** Throws when the value was not sealed with this key or was altered. */
  decrypt(sealed: string): string {
    const [tag0, iv, tag, ciphertext] = sealed.split(".");
    if (tag0 !== version || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error("not a sealed value");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
