/**
 * Checks the conformance package as an implementer gets it (D-95): packs deployment-conformance, installs the
 * tarball in an empty folder outside the clone, and wants node_modules within 15 MB, no vitest, vite, tsx or
 * esbuild among the installed packages, `--help` answering, its declarations type-checking under `tsc --strict`,
 * a failure's replay command that runs there, and a
 * full run against the reference server (demo data) that passes under Node 20, 22 and 24, and the README's
 * samples of that run's coverage and of `doctor` after it, equal to what the commands printed.
 *   npx tsx tools/package-check/conformance.ts [--runtimes DIR] [--keep] [--write-figures]
 * Node 22 and 24 come from the npm registry's `node` package, installed once into DIR (default: a folder
 * under the system temporary directory, kept between runs).
 */

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { demoFlags } from "../../contract/demo.js";
import { demo } from "../../contract/index.js";
import { startChildServer } from "../../server/testing/child-server.js";
import { buildServerIfStale } from "../build/build-server.js";
import { figureDrift, quotedFigures, writeFigures } from "./figures.js";
import { readmeSamples } from "./samples.js";

const exec = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));
/** The bound of the target: node_modules of an installation of the package alone. */
const maxInstallKiB = 15 * 1024;
/** Packages that must not come with the package: a test framework, its bundler, a TypeScript loader. */
const forbidden = ["vitest", "vite", "tsx", "esbuild"];
/** The runtimes a full run must pass under, beside the one running this script. */
const extraRuntimes = ["22", "24"];

const { values } = parseArgs({
  options: { runtimes: { type: "string" }, keep: { type: "boolean" }, "write-figures": { type: "boolean" } },
});
const runtimesDir = values.runtimes ?? join(tmpdir(), "deployment-conformance-runtimes");
const scratch = mkdtempSync(join(tmpdir(), "conformance-package-"));
const failures: string[] = [];

function check(ok: boolean, what: string): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

/** Runs a command; its output and exit code (never throws for a non-zero exit). */
async function sh(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  try {
    const { stdout, stderr } = await exec(file, args, { maxBuffer: 64 * 1024 * 1024, timeout: 600_000, ...options });
    return { code: 0, stdout, stderr, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return {
      code: e.code,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? "",
      seconds: (performance.now() - started) / 1000,
    };
  }
}

/** The bin folder of a Node runtime from the registry's `node` package, installed into the cache once. */
async function runtimeBin(major: string): Promise<string> {
  const prefix = join(runtimesDir, `node${major}`);
  const bin = join(prefix, "node_modules", ".bin");
  if (!existsSync(join(bin, "node"))) {
    mkdirSync(prefix, { recursive: true });
    const installed = await sh("npm", ["install", "--no-audit", "--no-fund", "--prefix", prefix, `node@${major}`], {
      cwd: prefix,
    });
    if (installed.code !== 0) throw new Error(`cannot install node@${major}: ${installed.stderr}`);
  }
  return bin;
}

/**
 * What a failed run's report says first: its seed (the run again with `--seed`) and each failing check with its
 * message and replay, which the end of a long console output may no longer hold.
 */
function failedRun(reportDir: string): string {
  const file = join(reportDir, "results.json");
  if (!existsSync(file)) return `no ${file}`;
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    seed: number;
    verdicts: { id: string; level: string; status: string; failure?: { message?: string; replay?: string } }[];
  };
  const failed = report.verdicts.filter((v) => v.status === "fail");
  return [
    `seed ${report.seed}, ${failed.length} failing check(s):`,
    ...failed.map(
      (v) => `  ${v.level} ${v.id}: ${v.failure?.message ?? "failed"}\n    replay: ${v.failure?.replay ?? "-"}`,
    ),
  ].join("\n");
}

/**
 * A full run of the installed command against a fresh reference server; PATH picks the runtime. With `samples`,
 * `doctor` runs first on that fresh server (a used one holds as many providers as the run's fuzzing made), and
 * the README's samples of both outputs are returned (D-344).
 */
async function fullRun(
  install: string,
  path: string,
  label: string,
  samples = false,
): Promise<{ seconds: number; samples?: Record<string, string> }> {
  const server = await startChildServer({ env: { HOSTING: "cloud", READY_AFTER_MS: "200" } });
  try {
    const version = (
      await sh("node", ["--version"], { cwd: install, env: { ...process.env, PATH: path } })
    ).stdout.trim();
    const command = join(install, "node_modules", ".bin", "deployment-conformance");
    const env = { ...process.env, PATH: path, NO_COLOR: "1" };
    const doctor = samples ? await sh(command, ["doctor", ...demoFlags(server.url)], { cwd: install, env }) : undefined;
    const reportDir = join(scratch, `report-${label}`);
    const result = await sh(
      command,
      [...demoFlags(server.url), "--quiet", "--fail-on-unexercised", "--report-dir", reportDir],
      { cwd: install, env },
    );
    const duration = /Duration (\S+) s/.exec(result.stdout)?.[1];
    check(
      result.code === 0 && result.stdout.includes("Every selected MUST check passed."),
      `a full run under Node ${version} passes (exit ${result.code}, suite ${duration} s, command ${result.seconds.toFixed(1)} s)`,
    );
    if (result.code !== 0) console.log(failedRun(reportDir), result.stdout.slice(-4000), result.stderr.slice(-2000));
    if (!doctor) return { seconds: result.seconds };
    return { seconds: result.seconds, samples: readmeSamples(doctor.stdout, result.stdout, server.url) };
  } finally {
    await server.stop();
  }
}

try {
  await buildServerIfStale();
  const packed = await sh("npm", ["pack", "-w", "deployment-conformance", "--json", "--pack-destination", scratch], {
    cwd: repositoryRoot,
  });
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  // the prepack build prints before npm's JSON
  const listing = packed.stdout.slice(packed.stdout.search(/^\[/m));
  const tarball = join(scratch, (JSON.parse(listing) as Array<{ filename: string }>)[0]!.filename);
  const install = join(scratch, "install");
  mkdirSync(install);
  writeFileSync(join(install, "package.json"), `${JSON.stringify({ name: "implementer", private: true }, null, 2)}\n`);
  const installed = await sh("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: install });
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${installed.stderr}`);
  console.log(`installed ${tarball} in ${installed.seconds.toFixed(1)} s`);

  const kib = Number((await sh("du", ["-sk", "node_modules"], { cwd: install })).stdout.split("\t")[0]);
  check(kib <= maxInstallKiB, `node_modules is ${(kib / 1024).toFixed(1)} MB (at most ${maxInstallKiB / 1024} MB)`);
  // The install size the README quotes (D-264): written with --write-figures, else compared within its tolerance.
  const installFigure = `${(kib / 1024).toFixed(1)} MB`;
  if (values["write-figures"]) writeFigures({ "conformance-install": installFigure });
  for (const quote of quotedFigures().filter((q) => q.name === "conformance-install")) {
    const drift = figureDrift(quote.text, installFigure);
    check(
      drift === undefined,
      `${quote.file} quotes the install size (--write-figures rewrites it)${drift ? `: ${drift}` : ""}`,
    );
  }
  const tree = await sh("npm", ["ls", "--all", "--parseable"], { cwd: install });
  const names = tree.stdout.split("\n").map((line) => line.split(/[\\/]node_modules[\\/]/).at(-1) ?? "");
  const found = forbidden.filter((name) => names.includes(name));
  check(
    found.length === 0,
    `npm ls --all holds none of ${forbidden.join(", ")}${found.length ? ` (found ${found.join(", ")})` : ""}`,
  );
  console.log(`npm ls --all: ${names.length - 2} packages`);

  const help = await sh("npx", ["deployment-conformance", "--help"], { cwd: install });
  check(
    help.code === 0 && help.stdout.startsWith("Usage: deployment-conformance"),
    "npx deployment-conformance --help answers",
  );

  // A program of the implementer type-checks against the declarations, library files included (no skipLibCheck).
  writeFileSync(
    join(install, "uses-package.ts"),
    [
      'import { allChecks, configFromObject, type RunResult, runConformance } from "deployment-conformance";',
      'import { conformanceTests } from "deployment-conformance/vitest";',
      'const config = configFromObject({ baseUrl: "http://127.0.0.1:1", apiKey: "k", only: ["DEP-LIST"] });',
      "const run: Promise<{ result: RunResult }> = runConformance(config);",
      "export const used = [allChecks.length, run, conformanceTests];",
      "",
    ].join("\n"),
  );
  const typed = await sh(
    join(repositoryRoot, "node_modules", ".bin", "tsc"),
    ["--strict", "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node"].concat([
      "--typeRoots",
      join(repositoryRoot, "node_modules", "@types"),
      "uses-package.ts",
    ]),
    { cwd: install },
  );
  check(
    typed.code === 0,
    `tsc --strict type-checks a program using the package${typed.code ? `:\n${typed.stdout}` : ""}`,
  );

  // A run that fails (a cloud server judged as self_hosted) prints a replay command that works in this folder.
  const server = await startChildServer({ env: { HOSTING: "cloud", READY_AFTER_MS: "200" } });
  try {
    const failing = await sh(
      "npx",
      ["deployment-conformance", ...demoFlags(server.url, "self_hosted"), "--only", "DEP-CREATE", "--quiet"],
      { cwd: install, env: { ...process.env, NO_COLOR: "1" } },
    );
    const replay = /^ +(?:replay: +)?(npx deployment-conformance replay .+)$/m.exec(failing.stdout)?.[1];
    check(failing.code === 1 && replay !== undefined, `a failure prints ${replay ?? "no replay command"}`);
    if (replay) {
      const again = await sh("sh", ["-c", replay], {
        cwd: install,
        env: { ...process.env, CONFORMANCE_API_KEY: demo.acme.apiKey, CONFORMANCE_OTHER_API_KEY: demo.globex.apiKey },
      });
      check(
        again.code === 1 && again.stdout.startsWith("Replay of run"),
        "the printed replay command runs in the install folder",
      );
    }
  } finally {
    await server.stop();
  }

  const times: string[] = [];
  const current = await fullRun(install, process.env.PATH ?? "", "current", true);
  times.push(`Node ${process.versions.node}: ${current.seconds.toFixed(1)} s`);
  // The samples of doctor and of a run's coverage the README quotes: written with --write-figures, else compared line by line.
  const samples = current.samples ?? {};
  if (values["write-figures"]) writeFigures(samples);
  for (const quote of quotedFigures().filter((q) => q.name in samples)) {
    const drift = figureDrift(quote.text, samples[quote.name]!, quote.name);
    check(
      drift === undefined,
      `${quote.file} quotes the ${quote.name} (--write-figures rewrites it)${drift ? `: ${drift}` : ""}`,
    );
  }
  for (const major of extraRuntimes) {
    const bin = await runtimeBin(major);
    const run = await fullRun(install, `${bin}${delimiter}${process.env.PATH ?? ""}`, `node${major}`);
    times.push(`Node ${major}: ${run.seconds.toFixed(1)} s`);
  }
  console.log(`full runs from the installed package (command wall time): ${times.join(", ")}`);
} finally {
  if (values.keep) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`conformance package: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("conformance package: every check passed");
