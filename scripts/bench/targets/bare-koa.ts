/** Baseline target of `npm run bench` (issue 6): bare Koa + @koa/router route answering the same constant JSON. */
import Router from "@koa/router";
import Koa from "koa";
import { announce, constantBody } from "./constant-body.js";

const app = new Koa();
const router = new Router();
router.get("/v2/deployments", (ctx) => {
  ctx.body = constantBody;
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  announce("bare-koa", typeof address === "object" && address ? address.port : 0);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
