/**
 * Whether a read is one the interface allows, as the contract states it (LAW-020): a GET of a list operation, with no
 * body, whose path parameters, query parameters and parameter headers each hold a value their schema takes. A query
 * parameter is read only when its name is written plainly, given once, and its value holds no `+` (a space or a plus:
 * D-374's spellings are judged elsewhere); an unknown name, or a value the schema refuses, makes the read one the
 * contract may refuse, and it is not judged.
 */
import { type ContractParameter, createContractAjv, matchPath, type ValidateFunction } from "../../contract/index.js";

const ajv = createContractAjv({ allErrors: false });
const compiled = new Map<ContractParameter, ValidateFunction>();
/** The validator of a parameter's schema, compiled once. */
function validatorOf(parameter: ContractParameter): ValidateFunction {
  let validate = compiled.get(parameter);
  if (!validate) {
    validate = ajv.compile(parameter.schema);
    compiled.set(parameter, validate);
  }
  return validate;
}

/** A parameter's text as its schema's type reads it: digits, true or false, a comma-separated list; undefined if not. */
function typed(parameter: ContractParameter, text: string): unknown {
  switch (parameter.schema.type) {
    case "integer":
      return /^(0|[1-9]\d{0,9})$/.test(text) ? Number(text) : undefined;
    case "boolean":
      return text === "true" ? true : text === "false" ? false : undefined;
    case "array":
      return parameter.explode ? undefined : text.split(",");
    default:
      return text;
  }
}

/** Whether `text` is a value the parameter's schema takes. */
const takes = (parameter: ContractParameter, text: string) => {
  const value = typed(parameter, text);
  return value !== undefined && validatorOf(parameter)(value) === true;
};

/** The decoded value of a percent-encoded query part, or undefined when it is not one plain reading. */
function decoded(text: string): string | undefined {
  if (text.includes("+")) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether a request (its method, its path relative to the base address, its URL and headers, its body) is a read the
 * contract allows.
 */
export function isAllowedRead(request: {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}): boolean {
  if (request.method !== "GET" || (request.body !== undefined && request.body !== "")) return false;
  const match = matchPath("GET", request.path.split("?")[0]!);
  if (match.kind !== "operation") return false;
  const { parameters } = match.operation;
  const inPath = parameters.filter((p) => p.in === "path");
  if (!inPath.every((p) => takes(p, match.pathParameters[p.name] ?? ""))) return false;
  const headers = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const p of parameters.filter((p) => p.in === "header")) {
    const value = headers.get(p.name.toLowerCase());
    if (value !== undefined && !takes(p, value)) return false;
  }
  const url = new URL(request.url);
  const seen = new Set<string>();
  for (const part of url.search.slice(1).split("&").filter(Boolean)) {
    const at = part.indexOf("=");
    const name = at < 0 ? part : part.slice(0, at);
    const parameter = parameters.find((p) => p.in === "query" && p.name === name);
    const value = decoded(at < 0 ? "" : part.slice(at + 1));
    if (!parameter || seen.has(name) || value === undefined || !takes(parameter, value)) return false;
    seen.add(name);
  }
  return true;
}
