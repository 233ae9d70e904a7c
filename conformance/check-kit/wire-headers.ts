/** The headers a request written by hand on a connection carries (LAW-012, HDR-008): the user's -H headers, the key, and the tenant when one is set. */
import type { CheckContext } from "../runner/check.js";
import { keyHeader } from "../target/key-header.js";

export function wireHeaders(ctx: CheckContext): Record<string, string> {
  const headers = { ...ctx.config.headers, ...keyHeader(ctx.config, ctx.config.apiKey) };
  if (ctx.config.tenantId) Object.assign(headers, { "X-Tenant-Id": ctx.config.tenantId });
  return headers;
}

/** The headers of a request written by hand that asks for JSON, as every check's request does. */
export function jsonWireHeaders(ctx: CheckContext): Record<string, string> {
  return { ...wireHeaders(ctx), Accept: "application/json" };
}

/** Headers in wire form, each on its own line ended by CRLF. */
export function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}
