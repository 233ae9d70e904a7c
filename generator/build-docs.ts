/**
 * `npm run docs`: the browsable API reference, a static self-contained HTML page built from
 * generated/openapi.json with Redocly's build-docs. The Redoc bundle is inlined
 * (`--inlineBundle`): without it the page loads Redoc from cdn.redocly.com, which the CI machine
 * cannot reach. The output, docs/api-reference.html, is build output and git-ignored.
 */
import { spawn } from "node:child_process";
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseCommandLine } from "../common/cli.js";
import { documentPath } from "../contract/index.js";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));
const redoclyBin = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));

/** Where `npm run docs` writes the page. */
export const defaultOutput = fileURLToPath(new URL("../docs/api-reference.html", import.meta.url));

/** The http(s) URLs the page would load (scripts, styles, preloads, module imports, fonts); empty when self-contained. */
export function externalResources(html: string): string[] {
  const patterns = [
    /<script\b[^>]*\bsrc\s*=\s*["']?(https?:\/\/[^"'\s>]+)/gi,
    /<link\b[^>]*\bhref\s*=\s*["']?(https?:\/\/[^"'\s>]+)[^>]*>/gi,
    /\bimport\s*(?:[\w{}\s,*]+from\s*)?["'](https?:\/\/[^"']+)["']/g,
    /@import\s+(?:url\()?["']?(https?:\/\/[^"')\s]+)/g,
    /url\(\s*["']?(https?:\/\/[^"')\s]+)/g,
  ];
  const found = new Set<string>();
  for (const pattern of patterns) for (const match of html.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** Runs `redocly build-docs --inlineBundle` and checks the page loads nothing from the network. */
export async function buildDocs(output = defaultOutput): Promise<{ path: string; bytes: number }> {
  await mkdir(dirname(output), { recursive: true });
  const args = [
    "build-docs",
    documentPath,
    "--inlineBundle",
    "--title",
    "Deployment and OAuth Provider Management Service API",
    "-o",
    output,
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(redoclyBin, args, {
      cwd: repositoryRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`redocly build-docs exited ${code}:\n${log}`)),
    );
  });
  const html = await readFile(output, "utf8");
  const external = externalResources(html);
  if (external.length > 0) throw new Error(`${output} loads resources from the network: ${external.join(", ")}`);
  return { path: output, bytes: (await stat(output)).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseCommandLine(
    `Usage: npm run docs -- [--output FILE]\n  --output, -o FILE   where to write the page (default ${defaultOutput})`,
    {
      output: { type: "string", short: "o", default: defaultOutput },
    },
  );
  buildDocs(values.output).then(
    (result) => console.log(JSON.stringify({ msg: "docs built", path: result.path, bytes: result.bytes })),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
