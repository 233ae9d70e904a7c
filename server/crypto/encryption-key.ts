/** The encryption key (D-54, D-55): ENCRYPTION_KEY, or a development key generated once and kept in the data directory. */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The configured key, or the development key in `<dataDir>/encryption.key` (created with mode 0600 on first start; refused when others may read it, D-117). */
export function resolveEncryptionKey(
  configured: Buffer | undefined,
  dataDir: string,
): { key: Buffer; source: "env" | "file" | "generated" } {
  if (configured) return { key: configured, source: "env" };
  const file = path.join(dataDir, "encryption.key");
  fs.mkdirSync(dataDir, { recursive: true });
  if (fs.existsSync(file)) return { key: readKey(file), source: "file" };
  // Written beside and linked into place: link fails if another process got there first, so two
  // processes starting together never see a half-written key or overwrite each other's.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  try {
    fs.linkSync(temporary, file);
    return { key: readKey(file), source: "generated" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { key: readKey(file), source: "file" };
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** Refuses a key file that its group or others may read or write (D-117): whoever reads it reads every secret. */
function checkPrivate(file: string): void {
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0)
    throw new Error(
      `${file} has mode ${mode.toString(8).padStart(4, "0")}: its group or others may read it; run chmod 600 on it (or set ENCRYPTION_KEY)`,
    );
}

function readKey(file: string): Buffer {
  checkPrivate(file);
  const hex = fs.readFileSync(file, "utf8").trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${file} does not hold a 64-hex-character key`);
  return Buffer.from(hex, "hex");
}
