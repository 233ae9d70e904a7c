/**
 * Shutdown scenario of `npm run reliability`: SIGTERM while 200 requests are in flight — creates
 * whose body is still arriving and lists whose headers are still arriving — then every one must be
 * answered (no reset), the server must exit 0 within 10 s, and every 201 must be listed after a restart.
 */
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { demo } from "../../contract/index.js";
import { walkDeployments } from "../harness/http.js";
import { startReference } from "../harness/reference.js";
import { parseResponse } from "./raw-http.js";
import type { ScenarioResult } from "./scenario.js";

interface ShutdownOptions {
  requests: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

interface HeldRequest {
  kind: "create" | "list";
  name?: string;
  socket: Socket;
  /** The bytes held back until after SIGTERM. */
  rest: Buffer;
  answer: Promise<{ status: number; body: string } | { error: string }>;
}

function hold(port: number, kind: "create" | "list", index: number): Promise<HeldRequest> {
  return new Promise((resolveHeld, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let name: string | undefined;
    let first: Buffer;
    let rest: Buffer;
    if (kind === "create") {
      name = `sd-${index}`;
      const body = Buffer.from(
        JSON.stringify({
          name,
          source: "internal_template",
          source_config: {},
          source_revision_config: {},
          secrets: [],
        }),
      );
      first = Buffer.from(
        `POST /v2/deployments HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${demo.acme.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      rest = body;
    } else {
      // Everything but the blank line that ends the headers: the request has begun but is not complete.
      first = Buffer.from(
        `GET /v2/deployments?limit=100&offset=0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${demo.acme.apiKey}\r\nConnection: close\r\n`,
      );
      rest = Buffer.from("\r\n");
    }
    const answer = new Promise<{ status: number; body: string } | { error: string }>((resolveAnswer) => {
      const settle = (closed: boolean, error?: string) => {
        const parsed = parseResponse(Buffer.concat(chunks), { closed });
        if (parsed.complete) resolveAnswer({ status: parsed.answer.status, body: parsed.answer.body.toString("utf8") });
        else if (closed) resolveAnswer({ error: error ?? parsed.error ?? "connection closed without an answer" });
      };
      socket.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        settle(false);
      });
      socket.on("error", (error: NodeJS.ErrnoException) => settle(true, `socket error ${error.code ?? error.message}`));
      socket.on("close", () => settle(true));
    });
    socket.once("connect", () =>
      socket.write(first, () => resolveHeld({ kind, ...(name ? { name } : {}), socket, rest, answer })),
    );
    socket.once("error", reject);
  });
}

export async function shutdownScenario(options: ShutdownOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const sqlitePath = join(options.dataDir, "shutdown.sqlite");
  const server = await startReference({ name: "shutdown", logDir: options.logDir, sqlitePath });
  const port = Number(new URL(server.url).port);
  const held: HeldRequest[] = [];
  try {
    for (let i = 0; i < options.requests; i++) held.push(await hold(port, i % 2 === 0 ? "create" : "list", i));
  } catch (error) {
    await server.stop();
    throw error;
  }
  await sleep(300); // the server has read every partial request
  const signalled = performance.now();
  server.process.kill("SIGTERM");
  await sleep(200);
  // Finish the requests in two waves, so some complete while others are still arriving.
  for (const [k, request] of held.entries()) {
    request.socket.write(request.rest);
    if (k === Math.floor(held.length / 2)) await sleep(50);
  }
  const answers = await Promise.all(held.map((request) => request.answer));
  const exit = await Promise.race([server.exited, sleep(15_000).then(() => undefined)]);
  const exitMs = performance.now() - signalled;
  if (exit === undefined) {
    failures.push("the server had not exited 15 s after SIGTERM");
    await server.kill("SIGKILL");
  } else {
    if (exit !== 0) failures.push(`exit ${exit} after SIGTERM (want 0)`);
    if (exitMs > 10_000) failures.push(`exit took ${exitMs.toFixed(0)} ms (want ≤ 10 s)`);
  }
  const statusCounts = new Map<string, number>();
  const created: string[] = [];
  for (const [k, answer] of answers.entries()) {
    const key = "error" in answer ? answer.error : String(answer.status);
    statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
    const request = held[k]!;
    const want = request.kind === "create" ? 201 : 200;
    if ("error" in answer) failures.push(`${request.kind} #${k} got no answer: ${answer.error}`);
    else if (answer.status !== want)
      failures.push(`${request.kind} #${k} answered ${answer.status} (want ${want}): ${answer.body.slice(0, 200)}`);
    else if (request.kind === "create" && request.name) created.push(request.name);
  }
  // The answered creates survived the shutdown.
  const restarted = await startReference({ name: "shutdown-restart", logDir: options.logDir, sqlitePath });
  let listedCreated = 0;
  try {
    const names = new Set(
      (await walkDeployments({ url: restarted.url, apiKey: demo.acme.apiKey })).deployments.map((d) => d.name),
    );
    const missing = created.filter((name) => !names.has(name));
    listedCreated = created.length - missing.length;
    if (missing.length)
      failures.push(
        `${missing.length} creates answered 201 during shutdown are not listed after restart, e.g. ${missing.slice(0, 5).join(", ")}`,
      );
  } finally {
    await restarted.stop();
  }
  const counts = [...statusCounts].map(([k, n]) => `${k}: ${n}`).join(", ");
  return {
    name: "shutdown",
    failures: failures.length > 20 ? [...failures.slice(0, 20), `… and ${failures.length - 20} more`] : failures,
    summary: [
      `${held.length} requests in flight at SIGTERM (${held.filter((r) => r.kind === "create").length} creates with the body still to come, ${held.filter((r) => r.kind === "list").length} lists with the headers still to come), finished 200 ms after the signal`,
      `answers: ${counts}; exit ${exit ?? "none"} ${exitMs.toFixed(0)} ms after SIGTERM; ${listedCreated} of ${created.length} created deployments listed after restart`,
    ],
  };
}
