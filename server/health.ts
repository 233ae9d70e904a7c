/**
 * GET /healthz (outside the contract; the launch interface of the tools), without authentication: 200
 * `{"status":"ok","database":"ok"}`; 200 `{"status":"degraded","database":"locked"}` while another process
 * holds the SQLite write lock (reads are answered, writes wait up to 2 s, then 503: D-110); 200
 * `{"status":"degraded","database":"full"}` while SQLite's writes find no disk space (they are 503, D-280); 503 while the
 * database cannot be reached (D-81).
 */
import type Router from "@koa/router";
import type { DatabaseState, Store } from "./storage/store.js";

export function registerHealth(router: Router, store: Store): void {
  router.get("/healthz", async (ctx) => {
    let state: DatabaseState | "unreachable";
    try {
      state = await store.ping();
    } catch {
      state = "unreachable";
    }
    ctx.status = state === "unreachable" ? 503 : 200;
    if (state === "unreachable") ctx.set("Retry-After", "2");
    ctx.type = "application/json";
    const status = { ok: "ok", locked: "degraded", full: "degraded", unreachable: "unavailable" }[state];
    ctx.body = JSON.stringify({ status, database: state });
  });
}
