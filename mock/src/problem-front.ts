/**
 * The mock's front: passes every exchange through to Prism and answers Prism's own error bodies
 * (request validation, missing key, unknown route, bad media type, malformed JSON) with the
 * contract's RFC 9457 problem details instead (D-16), so a client sees the same error
 * shape from the mock as from the reference server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { type ForwardedResponse, forward, writeAnswer } from "../../common/http-forward.js";
import { matchPath, operationList } from "../../contract/index.js";
import type { Problem } from "../../generated/client.js";
import { applyCors } from "../../server/engine.js";
import { bodyWithinLimit } from "./body-limit.js";
import { mockCorsPolicy } from "./engine/mock-cors.js";
import { type FaultOptions, withFaults } from "./faults.js";
import {
  isViolation,
  parseViolationsHeader,
  requestViolations,
  type Violation,
  validationProblem,
} from "./violations.js";

/** Header parameter names as the contract spells them (`X-Tenant-Id`), by their lower-case form. */
const headerNames = new Map(
  operationList
    .flatMap((operation) => operation.parameters)
    .filter((parameter) => parameter.in === "header")
    .map((parameter) => [parameter.name.toLowerCase(), parameter.name]),
);
const headerName = (lowerCase: string) => headerNames.get(lowerCase) ?? lowerCase;

/** Prism's own problem types (https://stoplight.io/prism/errors#...). */
const prismErrors = "https://stoplight.io/prism/errors#";

/** The answer to send instead of Prism's, or undefined to pass Prism's through. */
function contractProblem(
  response: ForwardedResponse,
  request: { method: string; path: string },
): { problem: Problem; headers?: Record<string, string> } | undefined {
  const violations = requestViolations(parseViolationsHeader(header(response.headers, "sl-violations")));
  const body = parseJson(response.body);
  const prismType =
    typeof body?.type === "string" && body.type.startsWith(prismErrors)
      ? body.type.slice(prismErrors.length)
      : undefined;
  if (response.status === 422 && (violations.length > 0 || prismType === "UNPROCESSABLE_ENTITY")) {
    const fromBody = Array.isArray(body?.validation) ? (body.validation as unknown[]).filter(isViolation) : [];
    return {
      problem: validationProblem(
        violations.length > 0 ? violations : requestViolations(fromBody as Violation[]),
        headerName,
      ),
    };
  }
  if (response.status === 401 && violations.some((violation) => violation.code === 401)) {
    return {
      problem: {
        type: "urn:deployment-service:problem:unauthenticated",
        title: "Unauthenticated",
        status: 401,
        detail: "Send a valid API key in the X-Api-Key header.",
      },
    };
  }
  if (response.status === 415 && violations.some((violation) => violation.code === 415)) {
    return {
      problem: {
        type: "urn:deployment-service:problem:unsupported-media-type",
        title: "Unsupported media type",
        status: 415,
        detail: "Send the request body as application/json.",
      },
    };
  }
  const microError = body?.error as { code?: unknown } | undefined;
  if (response.status === 400 && microError?.code === "invalid_json") {
    return {
      problem: {
        type: "urn:deployment-service:problem:malformed-json",
        title: "Malformed JSON",
        status: 400,
        detail: "The request body is not well-formed JSON.",
      },
    };
  }
  if (prismType === "NO_PATH_MATCHED_ERROR") {
    return {
      problem: {
        type: "urn:deployment-service:problem:not-found",
        title: "Not found",
        status: 404,
        detail: `No route ${request.path}.`,
      },
    };
  }
  if (prismType === "NO_METHOD_MATCHED_ERROR") {
    const match = matchPath(request.method, request.path);
    const allow = (match.kind === "method-not-allowed" ? match.allow : []).join(", ");
    return {
      problem: {
        type: "urn:deployment-service:problem:method-not-allowed",
        title: "Method not allowed",
        status: 405,
        detail: `${request.path} allows ${allow}.`,
      },
      headers: { allow },
    };
  }
  return undefined;
}

/** A header value as one string. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** A JSON object body, or undefined. */
function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the front on host:port, forwarding to the Prism at `prismUrl`. */
export function startProblemFront(options: {
  prismUrl: string;
  host: string;
  port: number;
  faults?: FaultOptions;
  /** Bytes of a request body it takes; a larger one is a 413 (the sandbox's 1 MiB by default, D-472). */
  bodyLimitBytes?: number;
}): Promise<Server> {
  const target = new URL(options.prismUrl);
  // The mock is a development tool: loopback origins are allowed besides CORS_ORIGINS (D-132).
  const cors = mockCorsPolicy(process.env);
  const server = createServer(
    withFaults((incoming, outgoing) => {
      if (applyCors(cors, incoming, outgoing)) return;
      void (async () => {
        const body = await bodyWithinLimit(incoming, outgoing, options.bodyLimitBytes);
        if (body === undefined) return;
        const path = new URL(incoming.url ?? "/", "http://mock").pathname;
        // D-21: HEAD is allowed wherever GET is; Prism knows only GET, and Node sends a HEAD answer without its body.
        const isHeadOfGet = incoming.method === "HEAD" && matchPath("HEAD", path).kind === "operation";
        const response = await forward(target, incoming, body, isHeadOfGet ? "GET" : incoming.method);
        const rewrite = contractProblem(response, { method: incoming.method ?? "GET", path });
        // Prism's own CORS answer (any origin) would override the front's allow-list (D-132).
        const answer = { ...response, headers: withoutCorsHeaders(response.headers) };
        if (rewrite)
          writeAnswer(
            outgoing,
            { ...answer, status: rewrite.problem.status, body: JSON.stringify(rewrite.problem) },
            { ...rewrite.headers, "content-type": "application/problem+json" },
          );
        else writeAnswer(outgoing, answer);
      })().catch((error: unknown) => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "application/problem+json" });
        outgoing.end(
          JSON.stringify({
            type: "urn:deployment-service:problem:internal",
            title: "Mock front failed",
            status: 502,
            detail: String(error),
          }),
        );
      });
    }, options.faults),
  );
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

/** The headers of an upstream answer without its `access-control-*` ones. */
function withoutCorsHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith("access-control-")));
}
