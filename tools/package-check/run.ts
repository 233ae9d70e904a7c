/**
 * `npm run package:check`: packs deployment-client and deployment-mock and proves each works from its
 * tarball alone, in empty folders of a scratch directory outside the clone (mktemp -d):
 *
 * - mock alone, `npm install --omit=peer` (D-273): at most 20 MB of node_modules and no `.node` file, install
 *   time reported; `npx deployment-mock --stateful --port 0` answers (spawn to first 200, best of three, under 1 s
 *   when the machine is not overloaded, D-100); the static mode exits naming the peers to add, and answers once
 *   they are added;
 * - mock with msw: a vitest test of another folder runs the client against `contractHandlers()`;
 * - client: a plain .mjs script lists deployments against that mock under Node 20 and, with runtimes
 *   from the registry's `node` package, Node 22 and 24; another gets a list through two 503 answers with `retry`
 *   and gives up on a server that never answers with `timeoutMs` (D-263); `tsc --strict` type-checks a .ts file using it;
 *   `vite build` bundles a page using it;
 * - mock state: `mock-state.mjs` seeds the stateful mock with 250 deployments and pages them with `paginate`,
 *   snapshots, restores, moves the clock, restarts it with `--state-file`, and records a seed from the
 *   reference server with `proxy --record` (Prism installed for it) that the mock serves back (D-320 to D-323);
 * - browser: the browser example's page, built by Vite from both tarballs (the `browser` condition of
 *   `deployment-mock/msw`), runs the stateful handlers in MSW's service worker in headless Chromium; the React
 *   Query example's page (D-331) walks their list with `deployment-client/react-query` to its end.
 *
 * Prints the figures (tarball and install sizes, start times, Vite build) and exits 1 when a proof fails.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseCommandLine } from "../../common/cli.js";
import { demo } from "../../contract/index.js";
import { reactQueryPageChecks, runPage, statefulPageChecks } from "../harness/browser-page.js";
import { startReference } from "../harness/reference.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
const fixtures = join(import.meta.dirname, "fixtures");
/** Versions the proofs install beside the tarballs (the repository's own pins). */
const pins = {
  typescript: "5.9.3",
  vite: "7.3.8",
  vitest: "4.1.12",
  msw: "2.15.0",
  prism: "5.14.2",
  redocly: "2.64.0",
  react: "19.2.0",
  tanstack: "5.108.0",
  openapiReactQuery: "0.5.4",
};
/** The start-up target of the stateful mock (from spawn to its first answer). */
const mockStartTargetMs = 1000;
/** The most node_modules the mock alone may take, without its optional peers (D-273). */
const mockInstallBudget = 20 * 1024 * 1024;
/** The static mode's optional peers, at the repository's pins. */
const staticPeers = ["@stoplight/prism-cli", "@redocly/openapi-core"];

const usage = `Usage: npm run package:check [-- --keep] [--skip-runtimes]
  --keep            leave the scratch folder in place and print its path
  --skip-runtimes   run the client script under this Node only (no Node 22 and 24 from the registry)`;

const { values } = parseCommandLine(usage, {
  keep: { type: "boolean", default: false },
  "skip-runtimes": { type: "boolean", default: false },
});

const scratch = mkdtempSync(join(tmpdir(), "deployment-packages-"));
const figures: string[] = [];
const failures: string[] = [];

/** Runs a command in `cwd`, returning its stdout; its stderr passes through. */
function run(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
}

/** Total size of the files under `dir`, in bytes. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** An empty project folder with the fixture files of `name` (or the given files, or none) and the given packages installed. */
function project(name: string, packages: string[], files?: string[], installFlags: string[] = []): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`);
  if (files) for (const file of files) cpSync(file, join(dir, basename(file)));
  else cpSync(join(fixtures, name), dir, { recursive: true });
  run(dir, "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...installFlags, ...packages]);
  return dir;
}

/** Every file under `dir` whose name ends with `suffix`. */
function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Checks one proof: records a failure instead of stopping the run. */
async function proof(label: string, body: () => Promise<string> | string): Promise<void> {
  const started = performance.now();
  try {
    const figure = await body();
    figures.push(`ok    ${label}: ${figure} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failures.push(label);
    figures.push(`FAIL  ${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A browser example's index.html and main.ts, built by Vite in a folder with `packages` installed, run in Chromium and judged. */
async function browserProof(
  label: string,
  name: string,
  example: string,
  packages: string[],
  judge: Parameters<typeof runPage>[2],
): Promise<void> {
  await proof(label, async () => {
    const app = project(name, packages, [join(example, "index.html"), join(example, "main.ts")]);
    run(app, "npx", ["--no-install", "vite", "build", "--logLevel", "warn"]);
    const page = await runPage(join(app, "dist"), join(app, "node_modules", "msw"), judge);
    const failed = Object.entries(page.checks).filter(([, ok]) => !ok);
    if (failed.length > 0) throw new Error(`${failed.map(([check]) => check).join(", ")} failed:\n${page.log}`);
    return `${Object.keys(page.checks).join(", ")}: ok in ${page.ms} ms`;
  });
}

/** Starts `npx deployment-mock [mode…] --port 0` in `dir`; resolves with its URL and the ms from spawn until it answered 200. */
async function startMock(
  dir: string,
  mode = ["--stateful"],
): Promise<{ url: string; ms: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn("npx", ["--no-install", "deployment-mock", ...mode, "--port", "0"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  // Waiting is bounded by time, not by attempts: on a loaded machine npx alone takes seconds (the time is judged apart, D-100).
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
    if (url) {
      const answer = await fetch(`${url}/v2/deployments?limit=1`, { headers: { "X-Api-Key": "start-probe" } });
      if (answer.ok) return { url, ms: performance.now() - started, child };
    }
    if (child.exitCode !== null) break;
    await sleep(5);
  }
  stopMock(child);
  throw new Error(`deployment-mock did not answer: ${output}`);
}

/** Ends the mock's process group (npx and the node it started). */
function stopMock(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
}

try {
  // Pack: each workspace's prepack builds its dist/.
  const packed = JSON.parse(
    run(repoRoot, "npm", ["pack", "-w", "client", "-w", "mock", "--pack-destination", scratch, "--json", "--silent"]),
  ) as Array<{ name: string; filename: string; size: number; unpackedSize: number; entryCount: number }>;
  const tarball = (name: string) => {
    const found = packed.find((p) => p.name === name);
    if (!found) throw new Error(`npm pack made no ${name}`);
    figures.push(
      `      ${name}: tarball ${(found.size / 1024).toFixed(0)} kB, ${found.entryCount} files, unpacked ${(found.unpackedSize / 1024).toFixed(0)} kB`,
    );
    return join(scratch, found.filename);
  };
  const clientTarball = tarball("deployment-client");
  const mockTarball = tarball("deployment-mock");

  const installStarted = performance.now();
  const mockOnly = project("mock-only", [mockTarball], [], ["--omit=peer"]);
  const installS = (performance.now() - installStarted) / 1000;
  await proof("deployment-mock alone (npm install --omit=peer): at most 20 MB of node_modules, no .node file", () => {
    const modules = join(mockOnly, "node_modules");
    const bytes = sizeOf(modules);
    const native = filesEndingWith(modules, ".node");
    const packages = readdirSync(modules).filter((entry) => !entry.startsWith(".")).length;
    const line = `${packages} top-level packages, ${mib(bytes)}, ${native.length} .node files, installed in ${installS.toFixed(1)} s at load average ${loadavg()[0]!.toFixed(1)}`;
    if (bytes > mockInstallBudget) throw new Error(`${line}: above ${mib(mockInstallBudget)}`);
    if (native.length > 0) throw new Error(`${line}: ${native.join(", ")}`);
    return line;
  });
  const mockApp = project("mock-app", [mockTarball, clientTarball, `vitest@${pins.vitest}`, `msw@${pins.msw}`]);
  figures.push(
    `      mock-app node_modules (deployment-mock, deployment-client, vitest, msw): ${mib(sizeOf(join(mockApp, "node_modules")))}`,
  );
  const clientApp = project("client-app", [clientTarball, `typescript@${pins.typescript}`, `vite@${pins.vite}`]);

  let mock: { url: string; ms: number; child: ChildProcess } | undefined;
  await proof("npx deployment-mock --stateful --port 0 (mock alone) answers 200 within 1 s (best of 3)", async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await startMock(mockOnly);
      times.push(started.ms);
      if (i < 2) stopMock(started.child);
      else mock = started;
      await sleep(200);
    }
    const best = Math.min(...times);
    const load = loadavg()[0]! / availableParallelism();
    const line = `start to first answer ${times.map((t) => t.toFixed(0)).join(", ")} ms, load average ${load.toFixed(1)} per core`;
    // D-100: a time is judged only on a machine that is not overloaded; otherwise it is reported.
    if (load >= 1) return `${line}: not judged (load of 1 or more per core)`;
    if (best > mockStartTargetMs) throw new Error(`${line}: none within ${mockStartTargetMs} ms`);
    return line;
  });
  await proof("the static mode without its peers exits naming them, and answers once they are added", async () => {
    const bare = spawnSync("npx", ["--no-install", "deployment-mock", "--port", "0"], {
      cwd: mockOnly,
      encoding: "utf8",
      timeout: 30_000,
    });
    const said = `${bare.stdout}${bare.stderr}`.trim();
    const unnamed = staticPeers.filter((peer) => !said.includes(peer));
    if (bare.status === 0 || unnamed.length > 0)
      throw new Error(`exit ${bare.status}, ${unnamed.join(" and ")} not named: ${said}`);
    const rootPins = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    run(mockOnly, "npm", [
      "install",
      "--save-dev",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...staticPeers.map((peer) => `${peer}@${rootPins.devDependencies[peer]}`),
    ]);
    const prism = await startMock(mockOnly, []);
    stopMock(prism.child);
    return `"${said}"; with the peers added, Prism answered 200 after ${prism.ms.toFixed(0)} ms`;
  });

  await proof("contractHandlers() in a vitest test of another folder", () => {
    const output = run(mockApp, "npx", ["--no-install", "vitest", "run", "--reporter=dot"]);
    return /Tests\s+\d+ passed[^\n]*/.exec(output)?.[0] ?? "passed";
  });

  const runtimes: Array<{ label: string; node: string }> = [
    { label: `Node ${process.version}`, node: process.execPath },
  ];
  if (!values["skip-runtimes"]) {
    for (const major of [22, 24]) {
      const prefix = join(scratch, `node${major}`);
      run(scratch, "npm", [
        "install",
        "--prefix",
        prefix,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `node@${major}`,
      ]);
      const node = join(prefix, "node_modules", ".bin", "node");
      runtimes.push({ label: `Node ${run(scratch, node, ["--version"]).trim()}`, node });
    }
  }
  for (const runtime of runtimes) {
    await proof(`client .mjs lists deployments from the mock under ${runtime.label}`, () => {
      if (!mock) throw new Error("no mock running");
      const line = run(clientApp, runtime.node, ["list.mjs"], { BASE_URL: mock.url });
      const result = JSON.parse(line) as { deployments: number };
      if (result.deployments < 1) throw new Error(`listed no deployments: ${line}`);
      return `${result.deployments} deployments`;
    });
  }
  await proof("client retry and timeoutMs: a list through two 503s, a request to a server that never answers", () => {
    if (!mock) throw new Error("no mock running");
    const line = run(clientApp, process.execPath, ["retry-timeout.mjs"], { BASE_URL: mock.url });
    const result = JSON.parse(line) as { refused: number; deployments: number; outcome: string; timeoutMs: number };
    if (result.refused !== 2 || result.deployments < 1) throw new Error(`the list did not come through: ${line}`);
    if (result.outcome !== "TimeoutError" || result.timeoutMs >= 1000) throw new Error(`no timeout in 1 s: ${line}`);
    return line.trim();
  });
  if (mock) stopMock(mock.child);
  await proof(
    "mock state from the tarballs: seed, paginate, snapshot and restore, clock, --state-file, proxy --record",
    async () => {
      // The proxy runs Prism, an optional peer; installed after the size figure above, which is without it.
      run(mockApp, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@stoplight/prism-cli@${pins.prism}`,
        `@redocly/openapi-core@${pins.redocly}`,
      ]);
      const reference = await startReference({ logDir: scratch, sqlitePath: join(scratch, "reference.sqlite") });
      try {
        return run(mockApp, process.execPath, ["mock-state.mjs"], {
          UPSTREAM: reference.url,
          UPSTREAM_KEY: demo.acme.apiKey,
        }).trim();
      } finally {
        await reference.stop();
      }
    },
  );

  await browserProof(
    "vite build of the browser example from the tarballs: deployment-mock/msw's browser build in MSW's service worker, run in Chromium",
    "browser-app",
    join(repoRoot, "mock", "browser-example"),
    [mockTarball, clientTarball, `msw@${pins.msw}`, `vite@${pins.vite}`],
    statefulPageChecks,
  );
  await browserProof(
    "vite build of the React Query example from the tarballs: useDeploymentPages walks the stateful MSW list in Chromium",
    "react-query-app",
    join(repoRoot, "examples", "react-query"),
    [
      mockTarball,
      clientTarball,
      `msw@${pins.msw}`,
      `vite@${pins.vite}`,
      `react@${pins.react}`,
      `react-dom@${pins.react}`,
      `@tanstack/react-query@${pins.tanstack}`,
      `openapi-react-query@${pins.openapiReactQuery}`,
    ],
    reactQueryPageChecks,
  );
  await proof("tsc --strict type-checks a .ts file using the client", () => {
    run(clientApp, "npx", ["--no-install", "tsc", "--strict", "-p", "tsconfig.json"]);
    return "no errors";
  });
  await proof("vite build of a page using the client", () => {
    const started = performance.now();
    run(clientApp, "npx", ["--no-install", "vite", "build", "--logLevel", "warn"]);
    const ms = performance.now() - started;
    const assets = join(clientApp, "dist", "assets");
    const bundle = readdirSync(assets).filter((file) => file.endsWith(".js"));
    const bytes = bundle.reduce((sum, file) => sum + statSync(join(assets, file)).size, 0);
    return `built in ${(ms / 1000).toFixed(1)} s, ${(bytes / 1024).toFixed(1)} kB of JavaScript`;
  });
} finally {
  process.stdout.write(`\npackage check (${scratch}):\n${figures.join("\n")}\n`);
  if (values.keep) process.stdout.write(`kept ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
}
if (failures.length > 0) {
  process.stderr.write(`${failures.length} proof(s) failed: ${failures.join("; ")}\n`);
  process.exit(1);
}
