/** The git side of the gate: which commit to compare with, and its committed generated/openapi.json (D-82). */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

function git(args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** How the default base is picked, for `--help`. */
export const defaultBaseRule =
  "the merge base with main on any other branch; on main, HEAD when spec/ has uncommitted changes, else HEAD^ (the previous commit)";

/** The default base ref and why it was picked. */
export function defaultBase(): { ref: string; why: string } {
  const branch = git(["rev-parse", "--abbrev-ref", "HEAD"]);
  if (branch !== "main") return { ref: git(["merge-base", "HEAD", "main"]), why: `merge base of ${branch} with main` };
  if (git(["status", "--porcelain", "--", "spec"]) !== "")
    return { ref: "HEAD", why: "main with uncommitted spec/ changes" };
  return { ref: "HEAD^", why: "main with a clean spec/: the previous commit" };
}

/** The text of `generated/openapi.json` as committed at `ref`. */
export function baseDocumentText(ref: string): string {
  return execFileSync("git", ["show", `${ref}:generated/openapi.json`], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The abbreviated commit a ref names, for the report. */
export function shortCommit(ref: string): string {
  return git(["rev-parse", "--short", ref]);
}

/** The published packages' versions, by name, in the working tree or (with `ref`) as committed at `ref`; a package absent there is left out. */
export function packageVersions(ref?: string): Map<string, string> {
  const versions = new Map<string, string>();
  for (const dir of ["client", "mock", "conformance"]) {
    try {
      const text = ref
        ? git(["show", `${ref}:${dir}/package.json`])
        : readFileSync(resolve(root, dir, "package.json"), "utf8");
      const manifest = JSON.parse(text) as { name: string; version: string };
      versions.set(manifest.name, manifest.version);
    } catch {
      // not in that commit
    }
  }
  return versions;
}

/** The texts of the pending changesets (`.changeset/*.md` but its README) in the working tree. */
export function pendingChangesets(): string[] {
  const dir = resolve(root, ".changeset");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .map((file) => readFileSync(resolve(dir, file), "utf8"));
}
