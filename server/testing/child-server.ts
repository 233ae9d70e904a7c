/** Test harness: `server/main.ts` as a child process (as `npm start` runs it), for kill -9 and multi-process tests. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const mainPath = fileURLToPath(new URL("../main.ts", import.meta.url));
const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface ChildServer {
  url: string;
  process: ChildProcess;
  stdout: string[];
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): Promise<number | string>;
}

/** Starts the server with the given environment on port 0 and waits for its "listening" line. */
export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", mainPath], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? "", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  let stderr = "";
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${stderr}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        stdout.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === "listening" && entry.url) {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // not a log line
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    url,
    process: child,
    stdout,
    exited,
    kill: (signal) => {
      child.kill(signal);
      return exited;
    },
  };
}
