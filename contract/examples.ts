/** The titled examples of the contract (D-71): what an operation answers for a status or a title, as the mocks serve them. */
import type { ExampleObject, MediaTypeObject, ResponseObject } from "openapi3-ts/oas31";
import { document } from "./document.js";
import type { ContractOperation } from "./operations.js";

/** One titled example of an answer. */
export interface ContractExample {
  status: number;
  mediaType: string;
  title: string;
  value: unknown;
}

/** Every titled example of an operation's answers, in the document's order of statuses and titles. */
export function responseExamples(operation: ContractOperation): ContractExample[] {
  const responses = document.paths?.[operation.path]?.[operation.method]?.responses ?? {};
  return Object.entries(responses as Record<string, ResponseObject>).flatMap(([status, response]) =>
    Object.entries(response.content ?? {}).flatMap(([mediaType, media]: [string, MediaTypeObject]) =>
      Object.entries(media.examples ?? {}).map(([title, example]) => ({
        status: Number(status),
        mediaType,
        title,
        value: (example as ExampleObject).value,
      })),
    ),
  );
}

/** The titled examples of an operation's request body. */
export function requestExamples(operation: ContractOperation): Array<{ title: string; value: unknown }> {
  const body = document.paths?.[operation.path]?.[operation.method]?.requestBody;
  const content = body && "content" in body ? body.content : {};
  return Object.values(content).flatMap((media) =>
    Object.entries(media.examples ?? {}).map(([title, example]) => ({
      title,
      value: (example as ExampleObject).value,
    })),
  );
}

/**
 * The example a `Prefer` header asks for (`code=<status>`, `example=<title>`, or both, as Prism reads
 * them); undefined when the header asks for none, an Error naming what is missing when none fits.
 */
export function preferredExample(
  operation: ContractOperation,
  prefer: string | undefined,
): ContractExample | Error | undefined {
  const wanted = parsePrefer(prefer);
  if (wanted.code === undefined && wanted.example === undefined) return undefined;
  const found = responseExamples(operation).find(
    (example) =>
      (wanted.code === undefined || example.status === wanted.code) &&
      (wanted.example === undefined || example.title === wanted.example),
  );
  return (
    found ??
    new Error(
      `${operation.id} has no example${wanted.example ? ` titled '${wanted.example}'` : ""}${wanted.code ? ` for status ${wanted.code}` : ""}`,
    )
  );
}

/** The preferences of a `Prefer` header (RFC 7240): `code=404, example="Not found", delay=200`. */
export function parsePrefer(prefer: string | undefined): {
  code?: number;
  example?: string;
  delay?: number;
  fault?: string;
} {
  const preferences: Record<string, string> = {};
  for (const match of (prefer ?? "").matchAll(/([a-zA-Z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,;\s]+)/g)) {
    const value = match[2]!;
    preferences[match[1]!.toLowerCase()] = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
  }
  const number = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);
  return {
    ...(number(preferences.code) !== undefined ? { code: number(preferences.code)! } : {}),
    ...(preferences.example !== undefined ? { example: preferences.example } : {}),
    ...(number(preferences.delay) !== undefined ? { delay: number(preferences.delay)! } : {}),
    ...(preferences.fault !== undefined ? { fault: preferences.fault } : {}),
  };
}
