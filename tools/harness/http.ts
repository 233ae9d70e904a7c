/**
 * Small HTTP helpers over fetch for the benchmark and reliability runs: authenticated JSON calls and the
 * page walk of D-09 (follow the returned `offset` until a page is shorter than `limit`).
 */
import type { Deployment, DeploymentCreate, DeploymentList } from "../../generated/client.js";

export interface Caller {
  url: string;
  apiKey: string;
  tenantId?: string;
}

interface JsonAnswer<Body = unknown> {
  status: number;
  contentType: string;
  body: Body;
}

function headersOf(caller: Caller, extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json", "x-api-key": caller.apiKey, ...extra };
  if (caller.tenantId) headers["x-tenant-id"] = caller.tenantId;
  return headers;
}

/** One authenticated request; the body is parsed as JSON when it is JSON, kept as text otherwise. */
export async function call<Body = unknown>(
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonAnswer<Body>> {
  const init: RequestInit = {
    method,
    headers: headersOf(caller, body === undefined ? undefined : { "content-type": "application/json" }),
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(new URL(path, caller.url), init);
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  let parsed: unknown = text;
  if (contentType.includes("json") && text.length > 0) parsed = JSON.parse(text);
  return { status: response.status, contentType, body: parsed as Body };
}

/** A deployment creation body that is valid in the cloud profile with no integration: an internal template. */
export function templateDeployment(name: string): DeploymentCreate {
  return { name, source: "internal_template", source_config: {}, source_revision_config: {}, secrets: [] };
}

interface Walk {
  deployments: Deployment[];
  count: number;
  pages: number;
  elapsedMs: number;
}

/** Walks every page of the deployment list (limit 100 by default), following the returned offset. */
export async function walkDeployments(
  caller: Caller,
  options: { limit?: number; query?: string; keep?: boolean } = {},
): Promise<Walk> {
  const limit = options.limit ?? 100;
  const started = performance.now();
  const deployments: Deployment[] = [];
  let offset = 0;
  let pages = 0;
  let count = 0;
  for (;;) {
    const answer = await call<DeploymentList>(
      caller,
      "GET",
      `/v2/deployments?limit=${limit}&offset=${offset}${options.query ? `&${options.query}` : ""}`,
    );
    if (answer.status !== 200)
      throw new Error(`page at offset ${offset}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    pages += 1;
    const page = answer.body;
    count += page.resources.length;
    if (options.keep !== false) deployments.push(...page.resources);
    if (page.resources.length < limit) break;
    if (page.offset <= offset) throw new Error(`offset did not advance: asked ${offset}, got ${page.offset}`);
    offset = page.offset;
    if (pages > 1_000_000) throw new Error("page walk did not end");
  }
  return { deployments, count, pages, elapsedMs: performance.now() - started };
}
