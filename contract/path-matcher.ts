/** Matches a request's method and path against the contract's path templates: the operation and its path parameters, or the methods the path allows (405, D-21). */
import { type ContractOperation, operationList } from "./operations.js";

/** What a request path is, for the contract. */
export type PathMatch =
  | { kind: "operation"; operation: ContractOperation; pathParameters: Record<string, string> }
  /** A known path, another method: answer 405 with `Allow` (HEAD is allowed wherever GET is). */
  | { kind: "method-not-allowed"; allow: string[] }
  | { kind: "unknown" };

interface CompiledTemplate {
  template: string;
  pattern: RegExp;
  names: string[];
  byMethod: Map<string, ContractOperation>;
}

const templates: CompiledTemplate[] = [];
for (const operation of operationList) {
  let compiled = templates.find((entry) => entry.template === operation.path);
  if (!compiled) {
    const names: string[] = [];
    const source = operation.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(name);
        return "([^/]+)";
      })
      .join("");
    compiled = { template: operation.path, pattern: new RegExp(`^${source}$`), names, byMethod: new Map() };
    templates.push(compiled);
  }
  compiled.byMethod.set(operation.method.toUpperCase(), operation);
}

/** The methods allowed on a path template (with HEAD wherever GET is), as `Allow` lists them. */
function allowedMethods(entry: CompiledTemplate): string[] {
  const methods = [...entry.byMethod.keys()];
  if (methods.includes("GET")) methods.push("HEAD");
  return methods;
}

/** Matches a method and a path (no query string; still percent-encoded) against the contract. */
export function matchPath(method: string, path: string): PathMatch {
  for (const entry of templates) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    const operation = entry.byMethod.get(method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase());
    if (!operation) return { kind: "method-not-allowed", allow: allowedMethods(entry) };
    const pathParameters: Record<string, string> = {};
    entry.names.forEach((name, index) => {
      pathParameters[name] = safeDecode(match[index + 1]!);
    });
    return { kind: "operation", operation, pathParameters };
  }
  return { kind: "unknown" };
}

/** The path templates of the contract with the methods each allows. */
export function knownPaths(): Array<{ template: string; allow: string[] }> {
  return templates.map((entry) => ({ template: entry.template, allow: allowedMethods(entry) }));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
