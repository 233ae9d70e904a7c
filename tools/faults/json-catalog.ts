/**
 * Faults of how a server reads and writes JSON (D-486, D-487): a lenient parser (comments, trailing commas), member
 * names matched ignoring letter case, answers that give a member name twice, and text coerced to a boolean or number (D-500).
 */

import { parses } from "../../conformance/model/json-corpus.js";
import { bareSchema } from "../../conformance/model/request-fields.js";
import { operation, type SchemaObject } from "../../contract/index.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";

const createPaths = new Set([operation("createOAuthProvider").path, operation("createDeployment").path]);
const isCreate = (req: ProxyRequest) => req.method === "POST" && createPaths.has(req.url.pathname);

/**
 * The text with what `drop` finds outside strings taken out: `drop(text, i)` gives how many characters at `i` to
 * take out (0: keep the character). Strings are copied as they are, escapes and all.
 */
function outsideStrings(text: string, drop: (text: string, at: number) => number): string {
  let out = "";
  for (let i = 0; i < text.length; ) {
    if (text[i] === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const n = drop(text, i);
    if (n > 0) i += n;
    else out += text[i++];
  }
  return out;
}

/** How many characters the comment at `at` spans (`// ...` to the line's end, `/* ... *\/`), or 0. */
function commentAt(text: string, at: number): number {
  if (text.startsWith("//", at)) {
    const end = text.indexOf("\n", at);
    return (end < 0 ? text.length : end) - at;
  }
  if (text.startsWith("/*", at)) {
    const end = text.indexOf("*/", at + 2);
    return end < 0 ? 0 : end + 2 - at;
  }
  return 0;
}

/** 1 at a comma followed (past white space) by a closing bracket, else 0. */
const trailingCommaAt = (text: string, at: number) =>
  text[at] === "," && /^\s*[}\]]/.test(text.slice(at + 1)) ? 1 : 0;

/** A create body that is no JSON is read with `lenient` first: when that makes it JSON, the server gets the JSON. */
function leniently(lenient: (text: string) => string): (req: ProxyRequest) => undefined {
  return (req) => {
    if (!isCreate(req) || parses(req.body)) return undefined;
    const read = lenient(req.body);
    if (read !== req.body && parses(read)) req.body = read;
    return undefined;
  };
}

/** The body with the first member of every object given once more before it (the later one wins a parse). */
function firstMemberTwice(res: ProxyResponse): ProxyResponse | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(res.body);
  } catch {
    return undefined;
  }
  const twice = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(twice).join(",")}]`;
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    const members = Object.entries(v).map(([k, item]) => `${JSON.stringify(k)}:${twice(item)}`);
    const [first] = Object.keys(v);
    return `{${first === undefined ? "" : `${JSON.stringify(first)}:null,`}${members.join(",")}}`;
  };
  return { ...res, body: twice(value) };
}

const createSchemas = new Map(
  ["createOAuthProvider", "createDeployment"].map((id) => [
    operation(id).path,
    operation(id).requestBody?.schema as SchemaObject,
  ]),
);

/** Text a lenient reader turns into a boolean, and into a number. */
const booleanText: Record<string, boolean> = { true: true, false: false, "1": true, "0": false };
const numberText = /^-?\d+(\.\d+)?$/;

/** The value with every member its schema types boolean or number, sent as text that reads as one, turned into it. */
function coerced(value: unknown, schema: SchemaObject, depth = 0): unknown {
  const s = bareSchema(schema);
  if (depth > 12) return value;
  if (typeof value === "string") {
    if (s.type === "boolean" && value in booleanText) return booleanText[value];
    if ((s.type === "integer" || s.type === "number") && numberText.test(value)) return Number(value);
    return value;
  }
  if (Array.isArray(value))
    return s.items ? value.map((item) => coerced(item, s.items as SchemaObject, depth + 1)) : value;
  if (value === null || typeof value !== "object" || !s.properties) return value;
  const properties = s.properties as Record<string, SchemaObject>;
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [
      name,
      properties[name] ? coerced(member, properties[name], depth + 1) : member,
    ]),
  );
}

export const jsonFaults: Fault[] = [
  {
    id: "booleans-coerced-from-text",
    level: "SHOULD",
    description:
      'A create body\'s boolean and number members sent as text ("true", "1") are read as the boolean or number, instead of refused for their JSON type (D-16, D-500)',
    request: (req) => {
      const schema = createSchemas.get(req.url.pathname);
      if (req.method !== "POST" || !schema || req.json === null || typeof req.json !== "object") return undefined;
      const body = req.json as Record<string, unknown>;
      Object.assign(body, coerced(body, schema));
      return undefined;
    },
  },
  {
    id: "json-comments-accepted",
    level: "MUST",
    description:
      "A create body with comments (// and /* */) is read as if they were not there, instead of refused as no JSON (interface spec: bodies are JSON)",
    request: leniently((text) => outsideStrings(text, commentAt)),
  },
  {
    id: "json-trailing-comma-accepted",
    level: "MUST",
    description:
      "A create body with a comma before a closing } or ] is read as if it were not there, instead of refused as no JSON (interface spec: bodies are JSON)",
    request: leniently((text) => outsideStrings(text, trailingCommaAt)),
  },
  {
    id: "member-names-case-insensitive",
    level: "MUST",
    description:
      "A create body's member names are matched ignoring letter case, so a body whose provider_id is sent as PROVIDER_ID is taken though it lacks provider_id (interface spec: required fields)",
    request: (req) => {
      if (!isCreate(req) || req.json === null || typeof req.json !== "object" || Array.isArray(req.json))
        return undefined;
      const body = req.json as Record<string, unknown>;
      for (const name of Object.keys(body)) {
        const lower = name.toLowerCase();
        if (lower !== name && !(lower in body)) {
          body[lower] = body[name];
          delete body[name];
        }
      }
      return undefined;
    },
  },
  {
    id: "answer-member-repeated",
    level: "SHOULD",
    description:
      "Every success answer gives the first member of each object twice, the first time as null (a parse keeps the last one, so only the text shows it; RFC 8259 §4, D-487)",
    response: (_req, res) => firstMemberTwice(res),
  },
];
