/**
 * Judges one answer of the fuzz run: errors are RFC 9457 problem details with type/title/status/detail,
 * `status` equal to the HTTP status, 405 with Allow (D-16, D-21); a 2xx of a read operation is a
 * documented answer of that operation (contract/answers.ts); no hostile create succeeds.
 */
import { answerProblems, document, matchPath } from "../../contract/index.js";
import type { RawAnswer } from "./raw-http.js";
import { header } from "./raw-http.js";

/** The judge of answers; holds the contract's problem types. */
export class ContractChecker {
  readonly problemTypes = new Set<string>(
    (document.components?.schemas?.ProblemType as { enum?: string[] } | undefined)?.enum ?? [],
  );

  /** Problems with one answer; empty when it is acceptable. */
  check(request: { method: string; target: string }, answer: RawAnswer): string[] {
    const violations: string[] = [];
    const { status } = answer;
    if (status >= 500) violations.push(`${status} answer`);
    if (status >= 200 && status < 300) {
      if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) {
        violations.push(
          `${request.method} accepted with ${status}: a hostile request changed or could change the data`,
        );
        return violations;
      }
      if (request.method !== "GET") return violations;
      if (/^\/healthz\/?(\?|$)/.test(request.target)) return violations;
      const path = requestPath(request.target);
      const match = path === undefined ? undefined : matchPath("GET", path);
      if (match?.kind !== "operation") return [...violations, `${status} for a path outside the contract`];
      const body = parseJson(answer.body);
      if (body === undefined) return [...violations, `${status} body is not JSON`];
      const problems = answerProblems(match.operation.id, {
        status,
        contentType: header(answer, "content-type"),
        body,
      });
      if (problems.length > 0) violations.push(`${status} answer does not match ${match.operation.id}: ${problems[0]}`);
      return violations;
    }
    // A HEAD answer has no body by definition; its headers must still announce a problem detail.
    if (request.method === "HEAD")
      return [...violations, ...this.problemViolations(answer).filter((problem) => problem.startsWith("content-type"))];
    return [...violations, ...this.problemViolations(answer)];
  }

  /** What is wrong with an error answer as an RFC 9457 problem detail (D-16). */
  problemViolations(answer: RawAnswer): string[] {
    const violations: string[] = [];
    const contentType = header(answer, "content-type") ?? "";
    if (!/^application\/problem\+json\s*(;|$)/i.test(contentType))
      violations.push(`content-type ${JSON.stringify(contentType)} is not application/problem+json`);
    const body = parseJson(answer.body);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      violations.push(`body is not a JSON object: ${JSON.stringify(answer.body.subarray(0, 80).toString("utf8"))}`);
      return violations;
    }
    const problem = body as Record<string, unknown>;
    if (typeof problem.type !== "string" || !this.problemTypes.has(problem.type))
      violations.push(`type ${JSON.stringify(problem.type)} is not a ProblemType`);
    if (typeof problem.title !== "string" || problem.title.length === 0) violations.push("title missing");
    if (problem.status !== answer.status)
      violations.push(`status field ${JSON.stringify(problem.status)} differs from HTTP ${answer.status}`);
    if (typeof problem.detail !== "string" || problem.detail.length === 0) violations.push("detail missing");
    if (problem.errors !== undefined) {
      const ok =
        Array.isArray(problem.errors) &&
        problem.errors.every(
          (item: unknown) =>
            typeof item === "object" && item !== null && typeof (item as { detail?: unknown }).detail === "string",
        );
      if (!ok) violations.push("errors is not a list of {pointer|parameter, detail}");
    }
    if (answer.status === 405 && !header(answer, "allow")) violations.push("405 without an Allow header");
    return violations;
  }
}

/** The path of a request target with dot segments removed, as the server routes it; undefined when it is no URL. */
function requestPath(target: string): string | undefined {
  try {
    return new URL(target, "http://127.0.0.1").pathname;
  } catch {
    return undefined;
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
