/**
 * `npm run pack [-- <package>…]`: builds and packs the named packages (client, mock, conformance, or their full names
 * deployment-client, …; all three when none is named) into dist-packages/ at the root of the clone (D-260), replacing
 * their older tarballs, and prints each tarball's size and file count. One package builds only itself.
 */
import { parseCommandLine } from "../../common/cli.js";
import { packageName, packWorkspaces, type Workspace, workspaces } from "./packages.js";

const usage = `Usage: npm run pack [-- <package>...]

Builds and packs each named package into dist-packages/ (all three when none is named), replacing its older tarball.
Packages: ${workspaces.map((w) => `${w} (${packageName(w)})`).join(", ")}.`;

const { positionals } = parseCommandLine(usage, {}, { positionals: true });
const unknown = positionals.filter((name) => !workspaceNamed(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown package ${unknown.join(", ")}\n\n${usage}\n`);
  process.exit(2);
}

/** The workspace a name means: its folder or its package name. */
function workspaceNamed(name: string): Workspace | undefined {
  return workspaces.find((w) => w === name || packageName(w) === name);
}

const selected = positionals.length > 0 ? [...new Set(positionals.map((name) => workspaceNamed(name)!))] : workspaces;
for (const p of packWorkspaces(selected))
  process.stdout.write(
    `${p.path}: ${(p.size / 1024).toFixed(1)} kB, ${p.entryCount} files, ${(p.unpackedSize / 1024).toFixed(1)} kB unpacked\n`,
  );
