/** Tests of AES-256-GCM sealing (D-54, D-55) and of the development key kept in the data directory. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveEncryptionKey } from "./encryption-key.js";
import { SecretBox } from "./secret-box.js";

describe("SecretBox", () => {
  const box = new SecretBox(Buffer.alloc(32, 1));
  it("round-trips and uses a fresh IV each time", () => {
    const cases = ["", "s3cr3t", "ünïcödé ✓", "x".repeat(65536)];
    for (const plaintext of cases) {
      const a = box.encrypt(plaintext);
      expect(box.decrypt(a)).toBe(plaintext);
      expect(box.encrypt(plaintext)).not.toBe(a);
    }
  });

  it("refuses an altered value and another key", () => {
    const sealed = box.encrypt("value");
    const parts = sealed.split(".");
    const flipped = Buffer.from(parts[3]!, "base64url");
    flipped[0]! ^= 1;
    expect(() => box.decrypt([parts[0], parts[1], parts[2], flipped.toString("base64url")].join("."))).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 2)).decrypt(sealed)).toThrow();
  });

  it.each([
    ["a tag cut to 4 bytes", 2, (part: Buffer) => part.subarray(0, 4)],
    ["a tag cut to 12 bytes", 2, (part: Buffer) => part.subarray(0, 12)],
    ["a tag of 17 bytes", 2, (part: Buffer) => Buffer.concat([part, Buffer.alloc(1)])],
    ["an IV of 16 bytes", 1, (part: Buffer) => Buffer.concat([part, Buffer.alloc(4)])],
  ])("refuses %s (D-281)", (_, index, change) => {
    const box = new SecretBox(Buffer.alloc(32, 1));
    const parts = box.encrypt("value", "ctx").split(".");
    parts[index] = change(Buffer.from(parts[index]!, "base64url")).toString("base64url");
    expect(() => box.decrypt(parts.join("."), "ctx")).toThrow("not a sealed value");
  });
});

describe("resolveEncryptionKey", () => {
  it("generates a development key once and reuses it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "key-test-"));
    const first = resolveEncryptionKey(undefined, dir);
    const second = resolveEncryptionKey(undefined, dir);
    expect(first.source).toBe("generated");
    expect(second.source).toBe("file");
    expect(second.key.equals(first.key)).toBe(true);
    expect(fs.statSync(path.join(dir, "encryption.key")).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const modes = [
    { given: 0o600, want: "accepted" },
    { given: 0o400, want: "accepted" },
    { given: 0o640, want: "refused" },
    { given: 0o604, want: "refused" },
    { given: 0o666, want: "refused" },
  ];
  for (const { given, want } of modes)
    it(`a key file of mode ${given.toString(8)} is ${want} (D-117)`, () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "key-mode-"));
      const file = path.join(dir, "encryption.key");
      fs.writeFileSync(file, `${"ab".repeat(32)}\n`);
      fs.chmodSync(file, given);
      try {
        if (want === "accepted") expect(resolveEncryptionKey(undefined, dir).source).toBe("file");
        else expect(() => resolveEncryptionKey(undefined, dir)).toThrow(/chmod 600/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

  it("prefers the configured key", () => {
    const configured = Buffer.alloc(32, 9);
    expect(resolveEncryptionKey(configured, "/nonexistent").key).toBe(configured);
  });
});
