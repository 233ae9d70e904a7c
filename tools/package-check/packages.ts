/** The published packages: their workspaces, and packing them into dist-packages/ (D-260). */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "..", "..");
/** Where `npm run pack` writes the tarballs; gitignored. */
export const packagesDir = join(repoRoot, "dist-packages");
/** The workspaces that are published, by folder. */
export const workspaces = ["client", "mock", "conformance"] as const;
/** One published workspace, by folder. */
export type Workspace = (typeof workspaces)[number];

/** The package name of a workspace (deployment-client, …). */
export function packageName(workspace: Workspace): string {
  return (JSON.parse(readFileSync(join(repoRoot, workspace, "package.json"), "utf8")) as { name: string }).name;
}

/** One tarball as `npm pack --json` describes it. */
export interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

/**
 * Packs the given workspaces (all by default) into dist-packages/, replacing their older tarballs and leaving the others';
 * each prepack builds its own dist/ only. The tarballs with their paths.
 */
export function packWorkspaces(selected: readonly Workspace[] = workspaces): Array<Packed & { path: string }> {
  mkdirSync(packagesDir, { recursive: true });
  const prefixes = selected.map((w) => `${packageName(w)}-`);
  for (const file of readdirSync(packagesDir))
    if (file.endsWith(".tgz") && prefixes.some((prefix) => file.startsWith(prefix))) rmSync(join(packagesDir, file));
  const output = execFileSync(
    "npm",
    ["pack", ...selected.flatMap((w) => ["-w", w]), "--pack-destination", packagesDir, "--json"],
    { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
  // A prepack build may print before npm's JSON.
  const packed = JSON.parse(output.slice(output.search(/^\[/m))) as Packed[];
  return packed.map((p) => ({ ...p, path: join(packagesDir, p.filename) }));
}
