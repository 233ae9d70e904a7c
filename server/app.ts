/**
 * The Koa adapter of the pipeline (D-270): the reference server's app. Koa brings the request id and the
 * access log, CORS (D-132), the send buffers (D-92) and streamed bodies (D-350); @koa/router routes each operation of the contract and
 * the health check to its pipeline step; everything else a request meets is the pipeline's (server/pipeline/).
 */

import type { IncomingMessage } from "node:http";
import Router from "@koa/router";
import Koa, { type Context, type Next } from "koa";
import type { Logger } from "pino";
import { operationList } from "../contract/index.js";
import { corsMiddleware, corsPolicyFromEnv } from "./cors.js";
import type { Dependencies } from "./dependencies.js";
import { HttpProblem } from "./errors/http-problem.js";
import { bindRequest, requestLog, requestLogging } from "./logging.js";
import type { PipelineAnswer, PipelineRequest } from "./pipeline/exchange.js";
import { healthRoute } from "./pipeline/health.js";
import { hostFieldCount, keyFieldCount } from "./pipeline/host-fields.js";
import { createPipeline } from "./pipeline/pipeline.js";
import { SendBuffers } from "./routes/send-buffers.js";
import { streamedBody } from "./routes/streamed-body.js";

export function createApp(deps: Dependencies): Koa {
  const app = new Koa();
  // Koa's own error printing would bypass the structured logger.
  app.silent = true;
  const pipeline = createPipeline(deps);
  const sendBuffers = new SendBuffers();
  const write = (ctx: Context, answer: PipelineAnswer): void => {
    ctx.status = answer.status;
    ctx.set(answer.headers);
    if (typeof answer.body === "string") ctx.body = sendBuffers.body(answer.body, ctx.res);
    else if (answer.body !== undefined)
      ctx.body = streamedBody(answer.body, ctx.res, () => (ctx.state.pipelineRequest as PipelineRequest).log());
  };
  app.use(requestLogging(deps.logger));
  app.use(drainUnreadBody);
  app.use(corsMiddleware(corsPolicyFromEnv(process.env, deps.config.demo)));
  app.use(async (ctx, next) => {
    const request = koaRequest(ctx, deps.logger);
    ctx.state.pipelineRequest = request;
    const refused = pipeline.admit(request);
    if (refused) return write(ctx, refused);
    await next();
    if (ctx.body === undefined && ctx.status === 404) write(ctx, pipeline.unmatched(request));
  });

  // Paths are exactly those of the contract: case and trailing slashes count.
  const router = new Router({ strict: true, sensitive: true, trailing: false });
  for (const operation of operationList) {
    router[operation.method](koaPath(operation.path), async (ctx) => {
      ctx.state.operationId = operation.id;
      write(ctx, await pipeline.operation(operation, ctx.params, ctx.state.pipelineRequest as PipelineRequest));
    });
  }
  router.get(healthRoute.path, async (ctx) => write(ctx, await pipeline.health()));
  app.use(router.routes());
  return app;
}

/** `/v1/integrations/codehost/{integration_id}/repos` → `/v1/integrations/codehost/:integration_id/repos`. */
function koaPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ":$1");
}

/** A Koa request in the pipeline's shape. */
function koaRequest(ctx: Context, logger: Logger): PipelineRequest {
  return {
    method: ctx.method,
    path: ctx.path,
    search: ctx.querystring,
    targetBytes: Buffer.byteLength(ctx.req.url ?? ""),
    headers: ctx.headers,
    httpVersion: ctx.req.httpVersion,
    hostFields: hostFieldCount(ctx.req.rawHeaders),
    keyFields: keyFieldCount(ctx.req.rawHeaders),
    readBody: (limit) => readLimited(ctx, limit),
    discardBody: () => ctx.req.resume(),
    log: () => requestLog(ctx, logger),
    identified: (who) => bindRequest(ctx, who),
  };
}

/** The body as it arrives, stopping (and discarding the rest) once it passes `limit`. */
function readLimited(ctx: Context, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const request = ctx.req;
    const finish = (result: Buffer | undefined, error?: unknown) => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      if (error) reject(error);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        request.resume();
        finish(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onError = (error: Error) =>
      finish(undefined, new HttpProblem("malformedJson", `The request body could not be read: ${error.message}`));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/**
 * The most of an unread body read and discarded before the answer goes out: a socket closed while the client still
 * sends is reset, and a reset can lose the answer before the client reads it (RFC 9112 §9.6). A body declared
 * larger, or of no declared length, is discarded while the answer is sent and the connection then closed (D-443).
 */
const drainedBodyBytes = 16 * 1024 * 1024;
/** How long an answer waits for the rest of a body it did not read: a client that stalls is not waited for (D-443). */
const drainWaitMs = 2000;

/**
 * Holds the answer to a request whose body was left unread (refused, or never needed) until that body has arrived,
 * so the socket is not closed under the sender even when the connection closes after the answer (D-443).
 */
async function drainUnreadBody(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    const request = ctx.req;
    if (!request.complete) {
      request.resume();
      // Koa's length is the declared Content-Length, undefined when the body declares none (chunked)
      const declared = ctx.request.length;
      if (declared === undefined || declared > drainedBodyBytes) ctx.set("Connection", "close");
      else await arrived(request, drainWaitMs);
    }
  }
}

/** Resolves once the request's body has been read to its end, the request is gone, or `ms` have passed. */
function arrived(request: IncomingMessage, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      request.off("end", done);
      request.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    request.once("end", done);
    request.once("close", done);
  });
}
