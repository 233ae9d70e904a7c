/** Starting and stopping the Prism CLI (`prism mock` / `prism proxy`) as a child process (mock issue). */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { scaledMs } from "../../common/machine-time.js";

/** What to add for the static mode and the contract proxy (D-273): Prism and the bundler of the document it serves are peers of the package. */
const staticModePeers = "@stoplight/prism-cli@5.14.2 @redocly/openapi-core@2.64.0";

/** The error of a static mode or a proxy whose peers are not installed, naming them (both run Prism). */
export function missingStaticPeers(): Error {
  return new Error(
    `the static mock and the contract proxy run Prism, which is not installed: npm install --save-dev ${staticModePeers} (or use --stateful, which needs neither)`,
  );
}

/** Prism's CLI script, found through Node's resolution so that it works in this repository and in an install of the package. */
function prismBin(): string {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json");
  } catch {
    throw missingStaticPeers();
  }
  const manifest = createRequire(import.meta.url)(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin.prism;
  if (!bin) throw new Error("@stoplight/prism-cli has no prism bin");
  return join(dirname(manifestPath), bin);
}

/** A running Prism. */
interface PrismProcess {
  /** Where Prism listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  child: ChildProcess;
  /** Everything Prism printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Options of startPrism. */
interface StartPrismOptions {
  /** Arguments after `prism`, e.g. `["mock", doc, "--port", "4010"]`. */
  args: string[];
  /** Give up when Prism has not said it is listening after this long. */
  timeoutMs?: number;
  /** Called with each line Prism prints (for pass-through logging). */
  onLine?: (line: string) => void;
}

/** Spawns Prism and resolves once it prints "Prism is listening on <url>". */
export function startPrism(options: StartPrismOptions): Promise<PrismProcess> {
  const child = spawn(process.execPath, [prismBin(), ...options.args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  let output = "";
  let pending = "";
  // A parent that exits without stopping Prism (an uncaught error) must not leave it listening.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    // 30 s on an idle machine, longer on a loaded one (D-403).
    const timeoutMs = options.timeoutMs ?? scaledMs(30_000);
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        options.onLine?.(line);
        const match = /Prism is listening on (http:\/\/\S+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ url: match[1]!, child, output: () => output, stop });
        }
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code ?? signal}) before listening:\n${output.slice(-2000)}`));
    });
  });
}

/** SIGTERM, then SIGKILL if the child is still there after 3 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
