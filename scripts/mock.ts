/**
 * `npm run mock`: the Prism mock of the contract on 127.0.0.1. Static answers
 * from the titled examples by default (`Prefer: example=<title>`, `Prefer: code=<status>`),
 * generated data with `--dynamic`; request validation on, invalid requests answered with the
 * contract's 422 problem shape by the front in mock/problem-front.ts (D-71, D-16).
 */
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { operation } from "../contract/index.js";
import { parseCommandLine } from "./cli.js";
import { freePort } from "./mock/free-port.js";
import { startProblemFront } from "./mock/problem-front.js";
import { writePrismDocument } from "./mock/prism-document.js";
import { startPrism } from "./mock/prism-process.js";

/** Options of startMock. */
export interface MockOptions {
  /** Port of the mock; 0 picks a free one. Default 4010. */
  port?: number;
  /** Generated data instead of the titled examples. */
  dynamic?: boolean;
  /** Serve Prism's answers unchanged, without the problem front. */
  raw?: boolean;
  /** Called with each line Prism prints (it logs at info level, every request). */
  onPrismLine?: (line: string) => void;
}

/** A running mock. */
export interface RunningMock {
  url: string;
  /** Milliseconds from the start of startMock until the mock answered its first request. */
  startupMs: number;
  close(): Promise<void>;
}

const host = "127.0.0.1";

/** Starts Prism (and the problem front) and resolves once the mock answers. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const started = performance.now();
  const document = await writePrismDocument();
  const port = options.port ?? 4010;
  const prismPort = options.raw ? port || (await freePort()) : await freePort();
  const args = ["mock", document.path, "--host", host, "--port", String(prismPort), "--verboseLevel", "info"];
  if (options.dynamic) args.push("--dynamic");
  let prism;
  try {
    prism = await startPrism({ args, ...(options.onPrismLine ? { onLine: options.onPrismLine } : {}) });
  } catch (error) {
    await document.remove();
    throw error;
  }
  let url = prism.url;
  let closeFront = async () => {};
  const close = async () => {
    await closeFront();
    await prism.stop();
    await document.remove();
  };
  try {
    if (!options.raw) {
      const front = await startProblemFront({ prismUrl: prism.url, host, port });
      url = `http://${host}:${(front.address() as AddressInfo).port}`;
      closeFront = () => new Promise((resolve) => front.close(() => resolve()));
    }
    // The first answer, not the "listening" line, is what a client waits for.
    await fetch(`${url}${operation("listOAuthProviders").path}`, { headers: { "X-Api-Key": "startup-probe" } });
  } catch (error) {
    // e.g. the port is taken: Prism must not stay behind.
    await close();
    throw error;
  }
  return { url, startupMs: Math.round(performance.now() - started), close };
}

const usage = `Usage: npm run mock -- [--port N] [--dynamic] [--raw] [--verbose]
  --port N     port of the mock on 127.0.0.1 (default 4010; 0 picks a free one)
  --dynamic    generated data instead of the titled examples
  --raw        Prism's own answers, without the problem front
  --verbose    print every line Prism logs, not only its warnings and errors`;

/** The command line. */
async function main(): Promise<void> {
  const { values } = parseCommandLine(usage, {
    port: { type: "string", default: "4010" },
    dynamic: { type: "boolean", default: false },
    raw: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${values.port}`);
  const mock = await startMock({
    port,
    dynamic: values.dynamic,
    raw: values.raw,
    // Prism logs every request at info level; without --verbose only its warnings and errors show.
    onPrismLine: (line) => {
      if (values.verbose || /[✖⚠]|\b(?:error|warning|fatal)\b/.test(line)) console.log(line);
    },
  });
  console.log(
    JSON.stringify({ msg: "listening", url: mock.url, mode: values.dynamic ? "dynamic" : "static", front: !values.raw, startupMs: mock.startupMs }),
  );
  const shutdown = () => void mock.close().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
