/** The in-memory sandbox on a port (D-171): for the conformance suite, `deployment-mock --stateful` and tools that need a URL. */
import pino from "pino";
import { listen } from "../../../common/listen.js";
import { createFetchHttpServer } from "./fetch-http-server.js";
import { createMemorySandbox, type MemorySandbox, type MemorySandboxOptions } from "./memory-sandbox.js";
import { mockCorsPolicy } from "./mock-cors.js";

/** The in-memory sandbox listening on its own port. */
export interface RunningMemorySandbox extends MemorySandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the in-memory sandbox on 127.0.0.1 (a free port unless `port` is given). */
export async function startMemorySandbox(
  options: MemorySandboxOptions & { port?: number; host?: string } = {},
): Promise<RunningMemorySandbox> {
  const sandbox = createMemorySandbox({ cors: mockCorsPolicy(process.env), ...options });
  const server = createFetchHttpServer(sandbox.handle, options.logger ?? pino({ level: "silent" }));
  return { ...sandbox, ...(await listen(server, options.port ?? 0, options.host ?? "127.0.0.1")) };
}
