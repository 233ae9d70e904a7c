/**
 * Keeps docs/architecture.md true: every path it names exists, every folder at the top of the repository, of tools/
 * and of conformance/ is named in it, the import rules of its layer table hold (read from the table itself), and no
 * two source files of the kit's code share a name.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const documentPath = "docs/architecture.md";
const document = readFileSync(join(root, documentPath), "utf8");

/** Folders never walked nor required: installed packages, built output, local data and reports. */
const unwalked = new Set(["node_modules", "dist", "dist-packages", "data", "test-results"]);
/** Folders whose every subfolder the document names ("" is the top of the repository). */
const mustNameSubfoldersOf = ["", "tools/", "conformance/"];
/** Folders of the kit's code whose source files have names unique across all of them. */
const uniqueNameFolders = ["server/", "contract/", "conformance/", "mock/src/", "common/"];
/** Names some files of those folders share, exactly these files, each pair with why. */
const sharedNames: Record<string, { files: string[]; why: string } | "any"> = {
  "index.ts": "any",
  "cli.ts": {
    files: ["common/cli.ts", "mock/src/cli.ts"],
    why: "the kit's one command-line parser and the mock package's bin, both the command line of their package",
  },
  "source-rules.ts": {
    files: ["contract/source-rules.ts", "server/rules/source-rules.ts"],
    why: "the per-source table (D-48, D-200) and the server's rule applying it; the mutation records key on the latter",
  },
  "demo.ts": {
    files: ["contract/demo.ts", "server/demo.ts"],
    why: "the demo data (D-77) and its seeding into the server: one concept at two layers",
  },
};
/** Folders whose rule the layer table must give, so that a table the parser misreads fails here. */
const ruledFolders = ["contract/", "server/", "conformance/", "common/", "client/", "mock/src/", "server/domain/"];

const isTest = (file: string) => /\.(test|typetest)\.ts$/.test(file);
const isSource = (file: string) => /\.(ts|mts|mjs|tsx)$/.test(file) && !file.endsWith(".d.ts");

function subfolders(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !unwalked.has(entry.name))
    .map((entry) => `${folder}${entry.name}/`);
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || unwalked.has(entry.name)) return [];
    const path = `${folder}${entry.name}`;
    return entry.isDirectory() ? filesUnder(`${path}/`) : [path];
  });
}

/** The document without its fenced blocks, and the fenced blocks alone. */
const fenced = [...document.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? "");
const prose = document.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
const codeSpans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "");
const pathLike = /^[\w.-]+(\/[\w.-]+)*\/?$/;
const topFolders = new Set(subfolders("").map((folder) => folder.slice(0, -1)));

/** Paths in code spans that start at a top folder of the repository (relative mentions such as `checks/auth.ts` aside). */
const namedPaths = codeSpans(prose).filter(
  (span) => pathLike.test(span) && span.includes("/") && topFolders.has(span.split("/")[0] ?? ""),
);

/** Folders of the layout trees: a line's first word ending in `/`, under the folder of the nearest line less indented. */
function treeFolders(block: string): string[] {
  const found: string[] = [];
  const open: { indent: number; path: string }[] = [];
  for (const line of block.split("\n")) {
    const match = /^( *)([\w.-]+(?:\/[\w.-]+)*\/)(\s|$)/.exec(line);
    if (!match) continue;
    const indent = match[1]?.length ?? 0;
    while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= indent) open.pop();
    const parent = open.at(-1);
    if (indent > 0 && !parent) continue;
    const path = `${parent?.path ?? ""}${match[2]}`;
    open.push({ indent, path });
    found.push(path);
  }
  return found;
}

const namedFolders = new Set([
  ...namedPaths.filter((path) => path.endsWith("/")),
  ...fenced.flatMap(treeFolders).filter((path) => topFolders.has(path.split("/")[0] ?? "")),
]);

interface LayerRule {
  layer: string;
  folder: string;
  never: string[];
  /** Files of a closed folder the row's May column names. */
  allowed: Set<string>;
  testsToo: boolean;
}

/** The rows of "Layers and what each may import" whose Folder cell starts with a folder and whose Never cell names folders. */
function layerRules(): LayerRule[] {
  const section = document.split(/^## Layers and what each may import$/m)[1]?.split(/^## /m)[0] ?? "";
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Layer |"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.flatMap(([layer = "", folderCell = "", mayCell = "", neverCell = ""]) => {
    const folder = codeSpans(folderCell)[0] ?? "";
    const never = codeSpans(neverCell).filter((span) => pathLike.test(span) && span.endsWith("/"));
    if (!folder.endsWith("/") || never.length === 0) return [];
    const allowed = new Set(
      codeSpans(mayCell)
        .filter((span) => pathLike.test(span) && span.includes("/") && !span.endsWith("/"))
        .map((span) => span.replace(/\.js$/, ".ts")),
    );
    return [{ layer, folder, never, allowed, testsToo: /in its tests too/.test(neverCell) }];
  });
}

/** The relative module specifiers of a source file: static and dynamic imports and re-exports. */
function relativeImports(file: string): { specifier: string; target: string }[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"?]*)[^"]*"/g)].map((match) => {
    const specifier = match[1] ?? "";
    const target = posix.normalize(posix.join(posix.dirname(file), specifier));
    return { specifier, target: target.replace(/\.js$/, ".ts") };
  });
}

describe(`${documentPath} names what is there`, () => {
  const namedFiles = namedPaths.filter((path) => !path.endsWith("/") && !path.split("/").includes("dist"));
  it.each(namedFiles)("%s exists", (path) => {
    const exists = existsSync(join(root, path)) || existsSync(join(root, path.replace(/\.js$/, ".ts")));
    expect(exists, `${documentPath} names ${path}, which is not in the repository`).toBe(true);
  });
  it.each([...namedFolders].filter((path) => !path.split("/").includes("dist")))("folder %s exists", (path) => {
    expect(existsSync(join(root, path)), `${documentPath} shows the folder ${path}, which is not there`).toBe(true);
  });
});

describe(`${documentPath} names every folder of the layout`, () => {
  const required = mustNameSubfoldersOf.flatMap(subfolders);
  it.each(required)("%s", (folder) => {
    expect(namedFolders.has(folder), `${folder} is named nowhere in ${documentPath}: add it to its layout`).toBe(true);
  });
});

describe(`the layer table of ${documentPath} holds`, () => {
  const rules = layerRules();
  it("gives a rule for each layer of the kit", () => {
    expect(rules.map((rule) => rule.folder)).toEqual(expect.arrayContaining(ruledFolders));
  });
  it.each(rules.map((rule) => [rule.layer, rule] as const))("%s", (_, rule) => {
    const files = filesUnder(rule.folder).filter((file) => isSource(file) && (rule.testsToo || !isTest(file)));
    const breaches = files.flatMap((file) =>
      relativeImports(file).flatMap(({ specifier, target }) => {
        if (target.startsWith(rule.folder) || rule.allowed.has(target)) return [];
        const closed = rule.never.find((folder) => target.startsWith(folder));
        return closed ? [`${file} imports "${specifier}" (in ${closed}, which ${rule.folder} never imports)`] : [];
      }),
    );
    expect(breaches, `row "${rule.layer}" of ${documentPath} broken: ${breaches.join("; ")}`).toEqual([]);
  });
});

describe("no two source files share a name", () => {
  const byName = new Map<string, string[]>();
  for (const file of uniqueNameFolders.flatMap(filesUnder).filter((f) => isSource(f) && !isTest(f))) {
    const name = posix.basename(file);
    byName.set(name, [...(byName.get(name) ?? []), file].sort());
  }
  it.each([...byName].filter(([, files]) => files.length > 1))("%s", (name, files) => {
    const shared = sharedNames[name];
    if (shared === "any") return;
    const why = shared ? ` (only ${shared.files.join(" and ")} may: ${shared.why})` : "";
    expect(files, `${files.join(", ")} share the name ${name}: give each a name saying what it is${why}`).toEqual(
      shared?.files ?? [files[0]],
    );
  });
  it("lists no shared name that is no longer shared", () => {
    const stale = Object.entries(sharedNames).filter(
      ([name, shared]) => shared !== "any" && (byName.get(name) ?? []).length < 2,
    );
    expect(stale.map(([name]) => name)).toEqual([]);
  });
});
