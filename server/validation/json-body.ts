/** Reading a JSON request body (D-16, D-30 to D-32): 415 when not application/json, 413 above 1 MiB (never buffering more), 400 when malformed or not UTF-8, 422 when parsing would change it (D-281) [D-17, D-23, D-24, D-30]. */
import type { Context } from "koa";
import { jsonFidelityIssues } from "../../contract/json-fidelity.js";
import { HttpProblem } from "../errors/http-problem.js";

/** 1 MiB. */
export const bodyLimitBytes = 1024 * 1024;

/** The parsed body of a request that must carry JSON. */
export async function readJsonBody(ctx: Context, limit = bodyLimitBytes): Promise<unknown> {
  const contentType = ctx.get("content-type");
  if (!isJsonContentType(contentType)) {
    drainAndClose(ctx);
    throw unsupportedMediaType(contentType);
  }
  const coding = ctx.get("content-encoding").trim().toLowerCase();
  if (coding !== "" && coding !== "identity") {
    // RFC 9110 §8.4.1, §15.5.16: a content coding the server does not apply is 415 (D-115).
    drainAndClose(ctx);
    throw new HttpProblem(
      "unsupportedMediaType",
      `The request body's Content-Encoding ${coding} is not supported; send it without a content coding.`,
      undefined,
      { "Accept-Encoding": "identity" },
    );
  }
  const declared = ctx.get("content-length");
  if (declared !== "" && Number(declared) > limit) {
    drainAndClose(ctx);
    throw payloadTooLarge(limit);
  }
  return parseJsonBody(decodeJsonBody(await readLimited(ctx, limit)));
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A body's bytes as text: 400 when they are not UTF-8 (D-281), instead of each bad byte silently becoming U+FFFD. */
function decodeJsonBody(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpProblem("malformedJson", "The request body is not valid UTF-8; send JSON encoded in UTF-8.");
  }
}

/** The 415 of a body that is not JSON. */
export function unsupportedMediaType(contentType: string): HttpProblem {
  return new HttpProblem(
    "unsupportedMediaType",
    `Send the request body as application/json${contentType ? `, not ${contentType.split(";")[0]}` : ""}.`,
  );
}

/** The 413 of a body above the limit. */
export function payloadTooLarge(limit = bodyLimitBytes): HttpProblem {
  return new HttpProblem("payloadTooLarge", `The request body is larger than ${limit} bytes.`);
}

/** A whole request body's text parsed as JSON: 400 when empty or malformed; 422 naming each place parsing would change (D-281). */
export function parseJsonBody(raw: string): unknown {
  if (raw.length === 0) throw new HttpProblem("malformedJson", "The request body is empty; send a JSON object.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    // V8's message quotes the body around the fault, which may hold a secret: only the position is told.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new HttpProblem(
      "malformedJson",
      `The request body is not valid JSON${position ? ` (syntax error at position ${position})` : ""}.`,
    );
  }
  const issues = jsonFidelityIssues(raw);
  if (issues.length > 0)
    throw new HttpProblem(
      "validation",
      `The request body cannot be stored as sent in ${issues.length === 1 ? "1 place" : `${issues.length} places`}; see errors.`,
      issues,
    );
  return parsed;
}

/** application/json or any +json type, in UTF-8. */
export function isJsonContentType(header: string): boolean {
  const [mediaType = "", ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) return false;
  const charset = parameters
    .find((p) => p.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const request = ctx.req;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        drainAndClose(ctx);
        finish(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = (error: Error) =>
      finish(new HttpProblem("malformedJson", `The request body could not be read: ${error.message}`));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/** Discards the rest of a body we refuse and closes the connection after answering. */
function drainAndClose(ctx: Context): void {
  ctx.set("Connection", "close");
  ctx.req.resume();
}
