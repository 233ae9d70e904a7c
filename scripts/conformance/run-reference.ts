/**
 * One-command conformance runs against the kit's own targets:
 *   npm run conformance:reference                          fresh reference server (temporary SQLite, demo data), cloud then self_hosted
 *   npm run conformance:reference -- --database-url URL     the same on PostgreSQL (or env TEST_DATABASE_URL), in a fresh schema
 *   npm run conformance:reference -- --target mock          the static Prism mock: stateless checks only
 *   npm run conformance:reference -- --target stateful-mock the sandbox (D-79), cloud then self_hosted
 *   npm run conformance:reference -- --target memory        the in-memory sandbox behind a thin Node HTTP wrapper (D-171), cloud then self_hosted
 * Every other argument goes to the suite (e.g. --report-dir DIR, --only DEP-LIST, or replay CHECK-ID --seed N).
 */

import { parseArgs } from "node:util";
import { main as runSuite } from "../../conformance/cli/conformance-command.js";
import { demo, demoFlags } from "../../contract/demo.js";
import { startMemorySandbox } from "../../mock/src/engine/memory-sandbox-server.js";
import { startMock } from "../../mock/src/mock.js";
import { startChildServer } from "../../server/testing/child-server.js";
import { freshSchemaName } from "../../server/testing/schema-name.js";
import { buildServerIfStale } from "../../tools/build/build-server.js";
import { dropSchema } from "../../tools/harness/postgres.js";

type Hosting = "cloud" | "self_hosted";
const targets = ["reference", "mock", "stateful-mock", "memory"] as const;
type Target = (typeof targets)[number];

const usage = `Usage: npm run conformance:reference -- [--target reference|mock|stateful-mock|memory] [--database-url URL] [--hosting cloud|self_hosted] [suite flags]
  --target T          reference (default): the reference server as a child process, demo data
                      mock: the static Prism mock (npm run mock), stateless checks only
                      stateful-mock: the sandbox (npm run mock -- --stateful), AUTH-002 and EDGE-014 skipped
                      memory: the sandbox on the in-memory store through its fetch handler (the stateful MSW handlers' pipeline), the same skips
  --database-url URL  reference only: PostgreSQL in a fresh schema (default: env TEST_DATABASE_URL, else SQLite)
  --hosting H         only this hosting kind (default: cloud, then self_hosted)
Every other flag goes to the suite (npm run conformance -- --help); a second hosting's --report-dir DIR becomes DIR-self_hosted
(and --har F.har becomes F-self_hosted.har).`;

interface Options {
  target: Target;
  databaseUrl?: string;
  hostings: Hosting[];
  /** The suite's own arguments, in the order given. */
  suiteArgs: string[];
}

/**
 * Reads the runner's own flags and keeps every other argument for the suite. parseArgs runs with
 * `strict: false` and `tokens`: in strict mode the suite's flags would be errors, and the tokens'
 * indexes let the other arguments (an unknown flag, its value, anything after `--`) reach the suite
 * exactly as given, where its own parser judges them.
 */
function parseOptions(args: string[]): Options {
  const own = {
    target: { type: "string" },
    "database-url": { type: "string" },
    hosting: { type: "string" },
    help: { type: "boolean", short: "h" },
  } as const;
  const { tokens } = parseArgs({ args, options: own, strict: false, allowPositionals: true, tokens: true });
  const options: Options = {
    target: "reference",
    databaseUrl: process.env.TEST_DATABASE_URL || undefined,
    hostings: ["cloud", "self_hosted"],
    suiteArgs: [],
  };
  const consumed = new Set<number>();
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      consumed.add(token.index);
      continue;
    }
    if (token.kind !== "option" || !Object.hasOwn(own, token.name)) continue;
    consumed.add(token.index);
    if (token.name === "help") {
      console.log(usage);
      process.exit(0);
    }
    if (token.value === undefined) fail(`${token.rawName} needs a value`);
    if (token.inlineValue === false) consumed.add(token.index + 1);
    if (token.name === "target") {
      if (!targets.includes(token.value as Target))
        fail(`--target must be one of ${targets.join(", ")}, got '${token.value}'`);
      options.target = token.value as Target;
    } else if (token.name === "database-url") options.databaseUrl = token.value;
    else {
      if (token.value !== "cloud" && token.value !== "self_hosted")
        fail(`--hosting must be cloud or self_hosted, got '${token.value}'`);
      options.hostings = [token.value];
    }
  }
  options.suiteArgs = args.filter((_, index) => !consumed.has(index));
  return options;
}

/**
 * The suite's command line and environment for a demo target: the demo flags but the keys, which go in
 * CONFORMANCE_API_KEY and CONFORMANCE_OTHER_API_KEY (as a user's do), so no argument of the run holds one.
 */
function demoTarget(baseUrl: string, hosting?: Hosting): { flags: string[]; env: NodeJS.ProcessEnv } {
  const flags = demoFlags(baseUrl, hosting).filter(
    (word, i, all) =>
      !["--api-key", "--other-api-key"].includes(word) && !["--api-key", "--other-api-key"].includes(all[i - 1] ?? ""),
  );
  return {
    flags,
    env: { ...process.env, CONFORMANCE_API_KEY: demo.acme.apiKey, CONFORMANCE_OTHER_API_KEY: demo.globex.apiKey },
  };
}

/** The suite's command line: the target's flags, then the user's; a `replay CHECK-ID` stays in front, where the suite reads it. */
function suiteArgv(targetFlags: string[], suiteArgs: string[]): string[] {
  if (suiteArgs[0] !== "replay") return [...targetFlags, ...suiteArgs];
  return [...suiteArgs.slice(0, 2), ...targetFlags, ...suiteArgs.slice(2)];
}

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** The suite's arguments for the second and later hostings: reports go beside the first run's (DIR-self_hosted, run-self_hosted.har). */
function withSuffixedReportDir(args: string[], hosting: Hosting): string[] {
  const harFile = (file: string) => file.replace(/(\.har)?$/, `-${hosting}$1`);
  return args.map((arg, index) => {
    if (arg.startsWith("--report-dir=")) return `${arg}-${hosting}`;
    if (arg.startsWith("--har=")) return `--har=${harFile(arg.slice("--har=".length))}`;
    if (args[index - 1] === "--har") return harFile(arg);
    return args[index - 1] === "--report-dir" ? `${arg}-${hosting}` : arg;
  });
}

/** Runs the suite once per hosting kind against a target started for it; the worst exit code wins. */
async function perHosting(
  options: Options,
  run: (hosting: Hosting, suiteArgs: string[]) => Promise<number>,
): Promise<number> {
  let worst = 0;
  for (const hosting of options.hostings) {
    const suiteArgs =
      hosting === options.hostings[0] ? options.suiteArgs : withSuffixedReportDir(options.suiteArgs, hosting);
    worst = Math.max(worst, await run(hosting, suiteArgs));
  }
  return worst;
}

/** The reference server as `npm start` runs it, through the one launcher (server/testing/child-server.ts). */
function runReference(options: Options): Promise<number> {
  return perHosting(options, async (hosting, suiteArgs) => {
    const schema = options.databaseUrl ? freshSchemaName("conformance") : undefined;
    const server = await startChildServer({
      env: { HOSTING: hosting, READY_AFTER_MS: "200", DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: schema },
    });
    console.log(
      `Reference server (${hosting}, ${schema ? "PostgreSQL" : "SQLite"}, demo data) at ${server.url}, listening after ${Math.round(server.listeningAfterMs)} ms`,
    );
    try {
      const target = demoTarget(server.url, hosting);
      return await runSuite(suiteArgv(target.flags, suiteArgs), target.env);
    } finally {
      await server.stop();
      if (options.databaseUrl && schema) await dropSchema(options.databaseUrl, schema);
    }
  });
}

/** The static mock client teams use (`npm run mock`): stateless checks run, the ones that need state are skipped. */
async function runMock(options: Options): Promise<number> {
  const mock = await startMock({ port: 0 });
  console.log(`Mock at ${mock.url} (stateless: checks that need state or real error details are skipped)`);
  try {
    const target = demoTarget(mock.url);
    return await runSuite(suiteArgv([...target.flags, "--stateless"], options.suiteArgs), target.env);
  } finally {
    await mock.close();
  }
}

/** The stateful mock as `npm run mock -- --stateful` starts it (the sandbox behind the fault front), so the stateful checks run too. */
function runStatefulMock(options: Options): Promise<number> {
  return perHosting(options, async (hosting, suiteArgs) => {
    const sandbox = await startMock({ port: 0, stateful: true, hosting, readyAfterMs: 200 });
    console.log(
      `Sandbox (${hosting}, demo data) at ${sandbox.url}; AUTH-002 and EDGE-014 skipped: the sandbox accepts any non-empty API key by design (D-79)`,
    );
    try {
      const target = demoTarget(sandbox.url, hosting);
      return await runSuite(suiteArgv([...target.flags, "--skip", "AUTH-002,EDGE-014"], suiteArgs), target.env);
    } finally {
      await sandbox.close();
    }
  });
}

/** The in-memory sandbox the stateful MSW handlers run (D-171), behind a thin Node HTTP wrapper: the same checks as the sandbox. */
function runMemory(options: Options): Promise<number> {
  return perHosting(options, async (hosting, suiteArgs) => {
    const sandbox = await startMemorySandbox({ hosting, readyAfterMs: 200 });
    console.log(
      `In-memory sandbox (${hosting}, demo data, fetch handler) at ${sandbox.url}; AUTH-002 and EDGE-014 skipped: any non-empty API key is accepted by design (D-79)`,
    );
    try {
      const target = demoTarget(sandbox.url, hosting);
      return await runSuite(suiteArgv([...target.flags, "--skip", "AUTH-002,EDGE-014"], suiteArgs), target.env);
    } finally {
      await sandbox.close();
    }
  });
}

const runners: Record<Target, (options: Options) => Promise<number>> = {
  reference: runReference,
  mock: runMock,
  "stateful-mock": runStatefulMock,
  memory: runMemory,
};

const options = parseOptions(process.argv.slice(2));
const started = Date.now();
// The reference runs judge the server as `npm start` runs it: compiled (D-89).
if (options.target === "reference") await buildServerIfStale();
runners[options.target](options).then(
  (code) => {
    console.log(
      `conformance:${options.target} finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${code})`,
    );
    // the target the printed replay lines name is gone: a fresh one replays with the demo keys from the environment
    if (code === 1)
      console.log(
        `Replay a failed check against a fresh target: npm run conformance:reference -- --target ${options.target} replay CHECK-ID --seed N`,
      );
    process.exit(code);
  },
  (error: unknown) => {
    console.error(`conformance:${options.target}: ${(error as Error).message}`);
    process.exit(2);
  },
);
