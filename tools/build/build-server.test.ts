/** The compiled server (D-89): built by vitest's global set-up, current, made from the sources it names, the PostgreSQL driver loaded only on demand, every library it holds or loads a production dependency (D-468). */
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCommand } from "../../server/testing/child-server.js";
import { builtServerDir, builtServerEntry, staleReason } from "./build-server.js";

const repoRoot = join(import.meta.dirname, "..", "..");
/** The packages a built module imports (statically or on demand), Node's built-ins and the bundle's own chunks left out. */
function importedPackages(code: string): string[] {
  const specifiers = [
    ...code.matchAll(/\bimport\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s*[\w$]+)?\s*from\s*"([^"]+)"/g),
    ...code.matchAll(/\bimport\s*\(\s*"([^"]+)"\s*\)/g),
  ].map((match) => match[1] as string);
  return specifiers
    .filter((specifier) => !/^[./]/.test(specifier) && !isBuiltin(specifier))
    .map((specifier) => (specifier.match(/^(?:@[^/]+\/)?[^/]+/) as RegExpMatchArray)[0]);
}

const info = () => JSON.parse(readFileSync(join(builtServerDir, "build-info.json"), "utf8")) as { inputs: object };

describe("npm run build", () => {
  it("is current after the global set-up built it", () => {
    expect(staleReason()).toBeUndefined();
  });

  it.each([
    { given: "the entry point", want: "server/main.ts" },
    { given: "the generated validators", want: "generated/validators.ts" },
    { given: "the operations table read at run time", want: "generated/operations.json" },
    { given: "a bundled dependency", want: "node_modules/koa/lib/application.js" },
  ])("counts $given among the inputs it checks for staleness", ({ want }) => {
    expect(Object.keys(info().inputs)).toContain(want);
  });

  it("keeps the PostgreSQL driver and Kysely out of the entry chunk (loaded only when needed)", () => {
    // A function of the pg driver's, and the class Kysely is named after.
    const driver = "isCloudflareRuntime";
    const entry = readFileSync(builtServerEntry, "utf8");
    expect(entry).not.toContain(driver);
    expect(entry).not.toContain("Kysely");
    const chunks = readdirSync(builtServerDir).filter((file) => file.endsWith(".mjs"));
    const postgresChunk = chunks.find((file) => file.startsWith("postgres-store-"));
    expect(postgresChunk && readFileSync(join(builtServerDir, postgresChunk), "utf8")).toContain(driver);
  });

  it("reads the contract's files relative to the bundle, so the checkout can move", () => {
    const entry = readFileSync(builtServerEntry, "utf8");
    expect(entry).toContain('new URL("../../contract/operations.ts",import.meta.url)');
    expect(entry).not.toContain(process.cwd());
  });

  it("is what the child-server launcher runs, with npm start's own environment and Node flags", () => {
    const { env, args } = startCommand();
    expect(args.at(-1)).toBe(builtServerEntry);
    expect(args.slice(0, -1).every((arg) => arg.startsWith("--"))).toBe(true);
    // glibc's fixed thresholds: a 1 MiB request body goes back to the system once freed, a page's send
    // buffer stays for the next page (D-89).
    expect(env).toEqual({ MALLOC_MMAP_THRESHOLD_: "1048576", MALLOC_TRIM_THRESHOLD_: "4194304" });
  });

  it("holds or loads only libraries that `npm ci --omit=dev` installs (D-468)", () => {
    // The lockfile's entries by install path; `dev: true` ones are left out by --omit=dev.
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const bundled = Object.keys(info().inputs).flatMap(
      (file) => /^((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? [],
    );
    const loaded = readdirSync(builtServerDir)
      .filter((file) => file.endsWith(".mjs"))
      .flatMap((file) => importedPackages(readFileSync(join(builtServerDir, file), "utf8")))
      .map((name) => `node_modules/${name}`);
    expect(loaded).toContain("node_modules/better-sqlite3");
    const notInstalled = [...new Set([...bundled, ...loaded])].filter(
      (path) => lock.packages[path]?.dev ?? !(path in lock.packages),
    );
    expect(notInstalled).toEqual([]);
  });
});
