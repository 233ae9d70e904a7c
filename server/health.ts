/** GET /healthz (outside the contract; the launch interface of the tools): 200 `{"status":"ok","database":"ok"}` without authentication, 503 while the database cannot be reached (D-81). */
import type Router from "@koa/router";
import type { Store } from "./storage/store.js";

export function registerHealth(router: Router, store: Store): void {
  router.get("/healthz", async (ctx) => {
    let reachable = true;
    try {
      await store.ping();
    } catch {
      reachable = false;
    }
    ctx.status = reachable ? 200 : 503;
    if (!reachable) ctx.set("Retry-After", "2");
    ctx.type = "application/json";
    ctx.body = JSON.stringify(
      reachable ? { status: "ok", database: "ok" } : { status: "unavailable", database: "unreachable" },
    );
  });
}
