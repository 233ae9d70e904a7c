/**
 * `npm run publish:check`: whether a registry would take the three packages as they are (D-260). Packs them
 * into dist-packages/ and wants, for each: complete metadata (keywords, its license, the root's supported Node range,
 * and once the root names a repository, that repository with the package's folder, a homepage and bugs; D-340), the license, README and changelog
 * in the tarball, publint clean (`--strict`: warnings fail too), `@arethetypeswrong/cli` clean for an ES-module
 * package (`--profile esm-only`), and `npm publish --dry-run` accepting the workspace without correcting its
 * package.json; and the tarball figures the READMEs quote within their tolerance (D-264). Exits 1 when a check fails.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { figureDrift, quotedFigures, tarballFigure } from "./figures.js";
import { packWorkspaces, workspaces } from "./packages.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);
const failures: string[] = [];

/** Prints one verdict and records a failure. */
function check(ok: boolean, what: string, detail = ""): void {
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${what}${ok || !detail ? "" : `\n${detail.trimEnd()}`}\n`);
  if (!ok) failures.push(what);
}

/** Runs a command; its exit code and both outputs together. */
function run(command: string, args: string[]): { code: number; output: string } {
  try {
    const output = execFileSync(command, args, { cwd: repoRoot, encoding: "utf8", stdio: "pipe" });
    return { code: 0, output };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

type Manifest = Record<string, unknown> & {
  name: string;
  repository?: { url?: string; directory?: string };
  engines?: { node?: string };
  files?: string[];
  keywords?: string[];
};
const readManifest = (dir: string) => JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as Manifest;

const root = readManifest(".");
// The project has no public address yet (D-340): the root's `repository` is where one is set, once; until then no
// package names a repository, homepage or bugs address, so none can be made up.
const address = root.repository?.url;
if (!address)
  process.stdout.write(
    "note the root package.json names no repository: set it (and each package's repository, homepage and bugs) before publishing (D-340)\n",
  );
for (const dir of workspaces) {
  const manifest = readManifest(dir);
  const missing = ["description", "license", ...(address ? ["homepage", "bugs"] : [])].filter((key) => !manifest[key]);
  if (!manifest.keywords?.length) missing.push("keywords");
  check(
    missing.length === 0,
    `${manifest.name}: package.json has ${missing.length ? `no ${missing.join(", ")}` : "its metadata"}`,
  );
  if (address)
    check(
      manifest.repository?.url === address && manifest.repository?.directory === dir,
      `${manifest.name}: repository is the root's (${address}) with directory "${dir}"`,
    );
  else
    check(
      !manifest.repository && !manifest.homepage && !manifest.bugs,
      `${manifest.name}: names no repository, homepage or bugs address while the root names none`,
    );
  check(
    manifest.engines?.node === root.engines?.node,
    `${manifest.name}: engines.node is the root's supported range ${root.engines?.node} (got ${manifest.engines?.node})`,
  );
}

const quotes = quotedFigures();
for (const tarball of packWorkspaces()) {
  const figure = `${tarball.name.replace(/^deployment-/, "")}-tarball`;
  for (const quote of quotes.filter((q) => q.name === figure)) {
    const drift = figureDrift(quote.text, tarballFigure(tarball));
    check(drift === undefined, `${quote.file} quotes the ${figure} figure (npm run figures rewrites it)`, drift);
  }
  const paths = new Set(tarball.files.map((file) => file.path));
  const absent = ["package.json", "README.md", "CHANGELOG.md", "LICENSE"].filter((file) => !paths.has(file));
  check(
    absent.length === 0,
    `${tarball.name}: ${tarball.filename} (${(tarball.size / 1024).toFixed(1)} kB, ${tarball.entryCount} files) holds ${absent.length ? `no ${absent.join(", ")}` : "package.json, README.md, CHANGELOG.md and LICENSE"}`,
  );
  const publint = run(bin("publint"), ["run", "--strict", tarball.path]);
  check(publint.code === 0, `${tarball.name}: publint --strict`, publint.output);
  const attw = run(bin("attw"), [tarball.path, "--profile", "esm-only", "--format", "table-flipped"]);
  check(attw.code === 0, `${tarball.name}: attw --profile esm-only`, attw.output);
  const dryRun = run("npm", ["publish", "--dry-run", "--ignore-scripts", "-w", tarball.name]);
  const corrected = /auto-corrected[^\n]*(\n.*npm warn publish[^\n]*)*/.exec(dryRun.output)?.[0];
  check(
    dryRun.code === 0 && corrected === undefined && dryRun.output.includes(`+ ${tarball.name}@${tarball.version}`),
    `${tarball.name}: npm publish --dry-run accepts ${tarball.name}@${tarball.version}`,
    corrected ?? dryRun.output,
  );
}

if (failures.length > 0) {
  process.stderr.write(`publish check: ${failures.length} check(s) failed\n`);
  process.exit(1);
}
process.stdout.write("publish check: every package would publish as it is\n");
