/**
 * The fetch adapter of the pipeline (D-270, D-171): `(Request) => Promise<Response>` with no Node HTTP server
 * and no Koa, for the mocks' sandbox, MSW and browsers. Every step is the pipeline's, as in the Koa adapter.
 */
import type { Dependencies } from "../dependencies.js";
import type { HttpProblem } from "../errors/http-problem.js";
import type { PipelineAnswer, PipelineRequest } from "./exchange.js";
import { createPipeline, type PipelineOptions } from "./pipeline.js";
import { problemAnswer } from "./problem-answer.js";

/**
 * A fetch-style handler of the whole interface. `sentTarget` is the request target as a server received it, when
 * one did: a URL resolves dot segments and re-encodes, and the pipeline judges the path as sent.
 */
export type FetchHandler = (request: Request, sentTarget?: string) => Promise<Response>;

/** The app over its dependencies. */
export function createFetchApp(deps: Dependencies, options: PipelineOptions = {}): FetchHandler {
  const pipeline = createPipeline(deps, options);
  return async (request, sentTarget) => {
    const answer = await pipeline.handle(fetchRequest(request, sentTarget, deps));
    return fetchResponse(answer, request.method === "HEAD");
  };
}

/** A problem as a fetch Response, as the pipeline answers it. */
export function problemResponse(problem: HttpProblem): Response {
  return fetchResponse(problemAnswer(problem), false);
}

function fetchResponse(answer: PipelineAnswer, head: boolean): Response {
  return new Response(head ? null : (answer.body ?? null), { status: answer.status, headers: answer.headers });
}

/** A fetch Request in the pipeline's shape. */
function fetchRequest(request: Request, sentTarget: string | undefined, deps: Dependencies): PipelineRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  const url = new URL(request.url);
  const target = sentTarget?.startsWith("/") ? sentTarget : url.pathname + url.search;
  const query = target.indexOf("?");
  return {
    method: request.method,
    path: query < 0 ? target : target.slice(0, query),
    search: query < 0 ? "" : target.slice(query + 1),
    targetBytes: sentTarget === undefined ? target.length : utf8Length(sentTarget),
    headers,
    missingHost: false,
    readBody: (limit) => readLimited(request, limit),
    discardBody: () => {
      void request.body?.cancel().catch(() => {});
    },
    log: () => deps.logger,
  };
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** The body, reading at most one chunk past `limit` (then undefined, the rest cancelled). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
