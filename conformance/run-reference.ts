/**
 * One-command run against our own targets (issue 4):
 *   npm run conformance:reference                       fresh reference server (temporary SQLite, demo data), cloud then self_hosted
 *   npm run conformance:reference -- --database-url URL  the same on PostgreSQL (or env TEST_DATABASE_URL), in a fresh schema
 *   npm run conformance:reference -- --target mock       the Prism mock of generated/openapi.json: stateless checks only
 * Extra flags after these are passed to the suite (e.g. --report-dir DIR, --only DEP-LIST).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { main as cliMain } from "./cli.js";
import { demoFlags } from "./demo.js";
import { listeningUrl, startReferenceServer } from "./reference-server.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

interface Options {
  target: "reference" | "mock";
  databaseUrl?: string;
  hostings: ("cloud" | "self_hosted")[];
  passthrough: string[];
}

function parse(argv: string[]): Options {
  const options: Options = { target: "reference", databaseUrl: process.env.TEST_DATABASE_URL || undefined, hostings: ["cloud", "self_hosted"], passthrough: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") continue;
    if (a === "--target") options.target = argv[++i] === "mock" ? "mock" : "reference";
    else if (a === "--database-url") options.databaseUrl = argv[++i];
    else if (a === "--hosting") options.hostings = [argv[++i] === "self_hosted" ? "self_hosted" : "cloud"];
    else options.passthrough.push(a);
  }
  return options;
}

/** Creates a fresh PostgreSQL schema and returns a URL whose connections use it. */
async function freshSchema(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import("pg")).default;
  const schema = `conformance_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** Runs the suite against the mock client teams use (`npm run mock`): stateless checks run, stateful ones are skipped. */
async function runMock(passthrough: string[]): Promise<number> {
  const mock = spawn(process.execPath, ["--import", "tsx", "scripts/mock.ts", "--port", "0"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mock did not start within 60 s:\n${output}`)), 60_000);
      mock.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      mock.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        // `npm run mock` prints one JSON line {"msg":"listening","url":...} once it answers.
        const url = output.split("\n").map(listeningUrl).find((found) => found !== undefined);
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
      mock.once("exit", (code) => reject(new Error(`the mock exited with ${code}:\n${output}`)));
    });
    console.log(`Mock at ${url} (stateless: checks that need state or real error details are skipped)`);
    return await cliMain([...demoFlags(url), "--stateless", ...passthrough], process.env);
  } finally {
    mock.kill("SIGTERM");
  }
}

async function runReference(options: Options): Promise<number> {
  let worst = 0;
  for (const hosting of options.hostings) {
    const schema = options.databaseUrl ? await freshSchema(options.databaseUrl) : undefined;
    const started = Date.now();
    const server = await startReferenceServer({ hosting, databaseUrl: schema?.url, readyAfterMs: 200 });
    console.log(`Reference server (${hosting}, ${schema ? "PostgreSQL" : "SQLite"}, demo data) at ${server.url}, started in ${Date.now() - started} ms`);
    try {
      const passthrough = hosting === options.hostings[0] || !options.passthrough.includes("--report-dir") ? options.passthrough : withSuffixedReportDir(options.passthrough, hosting);
      const code = await cliMain([...demoFlags(server.url, hosting), ...passthrough], process.env);
      worst = Math.max(worst, code);
    } finally {
      await server.stop();
      await schema?.drop();
    }
  }
  return worst;
}

/** A second run writes its reports beside the first (DIR-self_hosted). */
function withSuffixedReportDir(args: string[], hosting: string): string[] {
  const out = [...args];
  const i = out.indexOf("--report-dir");
  if (i >= 0 && out[i + 1]) out[i + 1] = `${out[i + 1]}-${hosting}`;
  return out;
}

const options = parse(process.argv.slice(2));
const started = Date.now();
(options.target === "mock" ? runMock(options.passthrough) : runReference(options)).then(
  (code) => {
    console.log(`conformance:${options.target} finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${code})`);
    process.exit(code);
  },
  (error: unknown) => {
    console.error(`conformance:${options.target}: ${(error as Error).message}`);
    process.exit(2);
  },
);
