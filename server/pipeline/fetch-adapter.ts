/**
 * The fetch adapter of the pipeline (D-270, D-171): `(Request) => Promise<Response>` with no Node HTTP server
 * and no Koa, for the mocks' sandbox, MSW and browsers. Every step is the pipeline's, as in the Koa adapter.
 */
import type { Dependencies } from "../dependencies.js";
import type { HttpProblem } from "../errors/http-problem.js";
import type { PipelineAnswer, PipelineRequest, StreamedBody } from "./exchange.js";
import { createPipeline, type PipelineOptions } from "./pipeline.js";
import { problemAnswer } from "./problem-answer.js";

/**
 * What a Node server received beyond what a fetch Request keeps: the method as sent (a Request refuses TRACE, TRACK
 * and CONNECT), the request target as sent (a URL resolves dot segments and re-encodes, and the pipeline judges the
 * path as sent), the request line's version and how many Host lines came (a Headers object joins them) [D-310].
 */
export interface SentMessage {
  method: string;
  target: string;
  httpVersion: string;
  hostFields: number;
  /** How many X-Api-Key lines came (a Headers object joins them into one value, D-397). */
  keyFields?: number;
}

/** A fetch-style handler of the whole interface; `sent` when a server received the request. */
export type FetchHandler = (request: Request, sent?: SentMessage) => Promise<Response>;

/** The app over its dependencies. */
export function createFetchApp(deps: Dependencies, options: PipelineOptions = {}): FetchHandler {
  const pipeline = createPipeline(deps, options);
  return async (request, sent) => {
    const answer = await pipeline.handle(fetchRequest(request, sent, deps));
    return fetchResponse(answer, (sent?.method ?? request.method) === "HEAD");
  };
}

/** A problem as a fetch Response, as the pipeline answers it. */
export function problemResponse(problem: HttpProblem): Response {
  return fetchResponse(problemAnswer(problem), false);
}

function fetchResponse(answer: PipelineAnswer, head: boolean): Response {
  const { body } = answer;
  if (typeof body === "object" && head) body.close();
  const init = head || body === undefined ? null : typeof body === "string" ? body : readableOf(body);
  return new Response(init, { status: answer.status, headers: answer.headers });
}

/** A streamed body (D-350) as a web stream that reads a part only when its reader asks for one, closed at its end or when cancelled. */
function readableOf(body: StreamedBody): ReadableStream<Uint8Array> {
  const parts = body.parts[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next();
        if (next.done) {
          body.close();
          controller.close();
        } else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        body.close();
        controller.error(error);
      }
    },
    async cancel() {
      body.close();
      await parts.return?.();
    },
  });
}

/** A fetch Request in the pipeline's shape. */
function fetchRequest(request: Request, sent: SentMessage | undefined, deps: Dependencies): PipelineRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  const url = new URL(request.url);
  const target = sent?.target.startsWith("/") ? sent.target : url.pathname + url.search;
  const query = target.indexOf("?");
  return {
    method: sent?.method ?? request.method,
    path: query < 0 ? target : target.slice(0, query),
    search: query < 0 ? "" : target.slice(query + 1),
    targetBytes: sent === undefined ? target.length : utf8Length(sent.target),
    headers,
    httpVersion: sent?.httpVersion,
    hostFields: sent?.hostFields,
    keyFields: sent?.keyFields,
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
