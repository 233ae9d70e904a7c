/**
 * Baseline target of `npm run bench`: bare Koa + @koa/router answering the constant JSON, or, with
 * BODY_FILE, exactly the bytes of a page captured from the reference server (the same-bytes baseline).
 */
import { readFileSync } from "node:fs";
import Router from "@koa/router";
import Koa from "koa";
import { announce, constantBody } from "./constant-body.js";

const bodyFile = process.env.BODY_FILE;
const captured = bodyFile ? readFileSync(bodyFile) : undefined;
const app = new Koa();
const router = new Router();
router.get("/v2/deployments", (ctx) => {
  if (captured) {
    ctx.type = "application/json";
    ctx.body = captured;
  } else {
    ctx.body = constantBody;
  }
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  announce("bare-koa", typeof address === "object" && address ? address.port : 0);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
