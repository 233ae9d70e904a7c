/** The mock package reaches the server through one module (D-404): its sources import `server/engine.ts`, and its two Node servers `server/errors/client-errors.ts` besides; no other server module. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");
const allowed = new Set(["server/engine.ts", "server/errors/client-errors.ts"]);

/** The .ts sources under a folder, tests left out (they may use the server's test support). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the mock's imports of the server", () => {
  it("are server/engine.ts (and client-errors.ts in the Node servers) only", () => {
    const imported = sources(join(root, "mock", "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)]
        .map((match) => relative(root, resolve(file, "..", match[1]!)).replace(/\.js$/, ".ts"))
        .filter((target) => target.startsWith("server/"))
        .map((target) => ({ file: relative(root, file), target })),
    );
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter(({ target }) => !allowed.has(target))).toEqual([]);
  });
});
