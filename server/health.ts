/** GET /healthz (outside the contract; the launch interface of the tools): 200 {"status":"ok"} without authentication. */
import type Router from "@koa/router";

export function registerHealth(router: Router): void {
  router.get("/healthz", (ctx) => {
    ctx.status = 200;
    ctx.type = "application/json";
    ctx.body = JSON.stringify({ status: "ok" });
  });
}
