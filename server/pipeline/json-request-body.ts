/** The body step (D-16, D-30 to D-32): 415 when not application/json or under a content coding (D-115), 413 above 1 MiB (never buffering more), 400 when empty or malformed. */
import { HttpProblem } from "../errors/http-problem.js";
import {
  bodyLimitBytes,
  isJsonContentType,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "../validation/json-body.js";
import type { PipelineRequest } from "./exchange.js";

// A byte order mark is kept, as it was sent: JSON text starts with a value (RFC 8259 §8.1), so such a body is a 400.
// Fatal: bytes that are not UTF-8 are a 400 (D-281), never silently replaced by U+FFFD.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The parsed body of a request that must carry JSON. */
export async function readJsonRequestBody(request: PipelineRequest, limit = bodyLimitBytes): Promise<unknown> {
  const contentType = headerText(request, "content-type");
  if (!isJsonContentType(contentType)) {
    request.discardBody();
    throw unsupportedMediaType(contentType);
  }
  const coding = headerText(request, "content-encoding").trim().toLowerCase();
  if (coding !== "" && coding !== "identity") {
    // RFC 9110 §8.4.1, §15.5.16: a content coding the server does not apply is 415 (D-115).
    request.discardBody();
    throw new HttpProblem(
      "unsupportedMediaType",
      `The request body's Content-Encoding ${coding} is not supported; send it without a content coding.`,
      undefined,
      { "Accept-Encoding": "identity" },
    );
  }
  const declared = headerText(request, "content-length");
  if (declared !== "" && Number(declared) > limit) {
    request.discardBody();
    throw payloadTooLarge(limit);
  }
  const bytes = await request.readBody(limit);
  if (bytes === undefined) throw payloadTooLarge(limit);
  return parseJsonBody(decodeUtf8(bytes));
}

/** A body's bytes as text: 400 when they are not UTF-8 (D-281). */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpProblem("malformedJson", "The request body is not valid UTF-8; send JSON encoded in UTF-8.");
  }
}

/** A header's text: repeated values joined by a comma, "" when absent. */
function headerText(request: PipelineRequest, name: string): string {
  const value = request.headers[name];
  return value === undefined ? "" : Array.isArray(value) ? value.join(", ") : value;
}
