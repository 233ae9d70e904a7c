/**
 * GET /healthz (outside the contract; the launch interface of the tools), without authentication: 200
 * `{"status":"ok","database":"ok"}`; 200 `{"status":"degraded","database":"locked"}` while another process
 * holds the SQLite write lock (reads are answered, writes wait up to 2 s, then 503: D-110); 503
 * `{"status":"unavailable","database":"full"}` while SQLite's writes find no disk space (they are 503, D-280, D-413);
 * 503 while the database cannot be reached (D-81).
 */
import type { DatabaseState, Store } from "../storage/store.js";
import { commonHeaders } from "./common-headers.js";
import type { PipelineAnswer } from "./exchange.js";

/** The path and methods of the health check. */
export const healthRoute = { path: "/healthz", methods: ["GET", "HEAD"] } as const;

export async function health(store: Store): Promise<PipelineAnswer> {
  let state: DatabaseState | "unreachable";
  try {
    state = await store.ping();
  } catch {
    state = "unreachable";
  }
  const status = { ok: "ok", locked: "degraded", full: "unavailable", unreachable: "unavailable" }[state];
  // A store that cannot write cannot serve creates: not ok, so a balancer or an orchestrator stops sending them (D-413).
  const unavailable = state === "unreachable" || state === "full";
  return {
    status: unavailable ? 503 : 200,
    headers: {
      ...commonHeaders,
      "Content-Type": "application/json; charset=utf-8",
      ...(unavailable ? { "Retry-After": "2" } : {}),
    },
    body: JSON.stringify({ status, database: state }),
  };
}
