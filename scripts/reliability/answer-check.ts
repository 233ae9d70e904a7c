/**
 * Judges one answer of the fuzz run against profile choice 4 (errors are RFC 9457 problem details with
 * type/title/status/detail, `status` equal to the HTTP status, 405 with Allow) and the contract (a 2xx
 * body validates against the operation's response schema in generated/openapi.json; no create succeeds).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { repoRoot } from "../bench/targets.js";
import type { RawAnswer } from "./raw-http.js";
import { header } from "./raw-http.js";

interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, { enum?: string[] }> };
}

type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/** Validators of the 200 answers of the contract's read operations, keyed by path template. */
export class ContractChecker {
  readonly problemTypes: Set<string>;
  private readonly readValidators: { pattern: RegExp; template: string; validate: ValidateFunction }[] = [];

  constructor(document: OpenApi = JSON.parse(readFileSync(join(repoRoot, "generated", "openapi.json"), "utf8")) as OpenApi) {
    this.problemTypes = new Set(document.components.schemas.ProblemType?.enum ?? []);
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    for (const format of ["int32", "int64", "float", "double"]) ajv.addFormat(format, { type: "number", validate: () => true });
    ajv.addSchema({ ...document, $id: "openapi.json" });
    for (const [template, item] of Object.entries(document.paths)) {
      if (!item.get?.responses?.["200"]?.content?.["application/json"]) continue;
      const pointer = `/paths/${template.replaceAll("~", "~0").replaceAll("/", "~1")}/get/responses/200/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: `openapi.json#${pointer.split("/").map((part) => encodeURIComponent(part).replaceAll("%7E", "~")).join("/")}` });
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      this.readValidators.push({ pattern, template, validate });
    }
  }

  /** The read operation a request target resolves to (dot segments removed), if any. */
  readOperation(target: string): { template: string; validate: ValidateFunction } | undefined {
    let path: string;
    try {
      path = new URL(target, "http://127.0.0.1").pathname;
    } catch {
      return undefined;
    }
    return this.readValidators.find((entry) => entry.pattern.test(path));
  }

  /** Problems with one answer; empty when it is acceptable. */
  check(request: { method: string; target: string }, answer: RawAnswer): string[] {
    const violations: string[] = [];
    const { status } = answer;
    if (status >= 500) violations.push(`${status} answer`);
    if (status >= 200 && status < 300) {
      if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) {
        violations.push(`${request.method} accepted with ${status}: a hostile request changed or could change the data`);
        return violations;
      }
      if (request.method !== "GET") return violations;
      if (/^\/healthz\/?(\?|$)/.test(request.target)) return violations;
      const operation = this.readOperation(request.target);
      if (!operation) return [...violations, `${status} for a path outside the contract`];
      const body = parseJson(answer.body);
      if (body === undefined) return [...violations, `${status} body is not JSON`];
      if (!operation.validate(body)) violations.push(`${status} body does not match ${operation.template}: ${JSON.stringify(operation.validate.errors?.[0])}`);
      return violations;
    }
    // A HEAD answer has no body by definition; its headers must still announce a problem detail.
    if (request.method === "HEAD") return [...violations, ...this.problemViolations(answer).filter((problem) => problem.startsWith("content-type"))];
    return [...violations, ...this.problemViolations(answer)];
  }

  /** What is wrong with an error answer as an RFC 9457 problem detail of this profile. */
  problemViolations(answer: RawAnswer): string[] {
    const violations: string[] = [];
    const contentType = header(answer, "content-type") ?? "";
    if (!/^application\/problem\+json\s*(;|$)/i.test(contentType)) violations.push(`content-type ${JSON.stringify(contentType)} is not application/problem+json`);
    const body = parseJson(answer.body);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      violations.push(`body is not a JSON object: ${JSON.stringify(answer.body.subarray(0, 80).toString("utf8"))}`);
      return violations;
    }
    const problem = body as Record<string, unknown>;
    if (typeof problem.type !== "string" || !this.problemTypes.has(problem.type)) violations.push(`type ${JSON.stringify(problem.type)} is not a ProblemType`);
    if (typeof problem.title !== "string" || problem.title.length === 0) violations.push("title missing");
    if (problem.status !== answer.status) violations.push(`status field ${JSON.stringify(problem.status)} differs from HTTP ${answer.status}`);
    if (typeof problem.detail !== "string" || problem.detail.length === 0) violations.push("detail missing");
    if (problem.errors !== undefined) {
      const ok = Array.isArray(problem.errors) && problem.errors.every((item: unknown) => typeof item === "object" && item !== null && typeof (item as { detail?: unknown }).detail === "string");
      if (!ok) violations.push("errors is not a list of {pointer|parameter, detail}");
    }
    if (answer.status === 405 && !header(answer, "allow")) violations.push("405 without an Allow header");
    return violations;
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
