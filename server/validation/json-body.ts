/** The parts of reading a JSON request body (D-16, D-30 to D-32) that the pipeline's body step uses: the limit, the 415 and 413 problems, the media type test, the parse, 422 when parsing would change it (D-281) [D-17, D-23, D-24, D-30]. */
import { jsonFidelityIssues } from "../../contract/json-fidelity.js";
import { HttpProblem } from "../errors/http-problem.js";

/** 1 MiB. */
export const bodyLimitBytes = 1024 * 1024;

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
