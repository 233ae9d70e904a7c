/**
 * The first answer of a run that does not keep its request (LAW-019): a deployment page holding more than its limit,
 * a deployment deployment_ids does not name, one of another image_version than the filter's, or a name without
 * name_contains in it; a create answered with a record
 * of another name, source or provider_id than it sent.
 */
import type { Exchange } from "../target/http-exchange.js";
import { REDACTED } from "../target/redact.js";
import { perRun } from "./per-run.js";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The query parameters of a target as written: a name spelled exactly (not percent-encoded) and given once, with a
 * value free of `%` and `+`. Any other spelling is a legal variation D-374 judges at SHOULD, so it is not read here.
 */
export function plainParameters(url: string): Map<string, string> {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  const seen = new Map<string, string[]>();
  for (const part of query.split("&").filter(Boolean)) {
    const at = part.indexOf("=");
    const name = at < 0 ? part : part.slice(0, at);
    seen.set(name, [...(seen.get(name) ?? []), at < 0 ? "" : part.slice(at + 1)]);
  }
  const out = new Map<string, string>();
  for (const [name, values] of seen) if (values.length === 1 && !/[%+]/.test(values[0]!)) out.set(name, values[0]!);
  return out;
}

/** Why a 2xx page of the deployment list does not keep its query, if it does not. */
function pageBreaksQuery(url: string, page: Json): string | undefined {
  const resources = Array.isArray(page.resources) ? page.resources.filter(isObject) : [];
  const query = plainParameters(url);
  const limitText = query.get("limit");
  // a limit outside 1..100 that a target accepts is DEP-LIST-004..006's failure, not one more of this reading
  const written = limitText !== undefined && /^\d+$/.test(limitText) ? Number(limitText) : undefined;
  const limit =
    limitText === undefined ? 20 : written !== undefined && written >= 1 && written <= 100 ? written : undefined;
  if (limit !== undefined && resources.length > limit)
    return `the page holds ${resources.length} deployments, more than its limit ${limit}${limitText === undefined ? " (the default)" : ""}`;
  const named = query.get("deployment_ids");
  if (named !== undefined) {
    const ids = new Set(named.toLowerCase().split(","));
    const other = resources.find((r) => !ids.has(String(r.id).toLowerCase()));
    if (other) return `deployment_ids=${named} returned ${String(other.id)}, which it does not name`;
  }
  const version = query.get("image_version");
  if (version) {
    const other = resources.find((r) => r.image_version !== version);
    if (other)
      return `image_version=${version} returned ${String(other.name)}, whose image_version is ${JSON.stringify(other.image_version)}`;
  }
  const needle = query.get("name_contains");
  if (needle !== undefined) {
    const other = resources.find((r) => !String(r.name).toLowerCase().includes(needle.toLowerCase()));
    if (other) return `name_contains=${needle} returned ${String(other.name)}, whose name does not hold it`;
  }
  return undefined;
}

/** The fields a create answer must carry as sent: a deployment's name and source, a provider's identity. */
const echoed: Record<string, readonly string[]> = {
  createDeployment: ["name", "source"],
  createOAuthProvider: ["provider_id", "name", "client_id"],
};

/** Why a 2xx create answer is not the record of what it sent, if it is not. */
function createBreaksBody(exchange: Exchange, answer: Json): string | undefined {
  const fields = echoed[exchange.operation ?? ""];
  if (!fields || exchange.request.body === undefined || exchange.request.bodyTruncated) return undefined;
  let sent: unknown;
  try {
    sent = JSON.parse(exchange.request.body);
  } catch {
    return undefined;
  }
  if (!isObject(sent)) return undefined;
  // a value masked in the record (it equals a secret the same body sent, D-392) cannot be compared with its answer
  const field = fields.find((f) => typeof sent[f] === "string" && sent[f] !== REDACTED && answer[f] !== sent[f]);
  return field === undefined
    ? undefined
    : `a create that sent ${field} ${JSON.stringify(sent[field])} was answered with ${field} ${JSON.stringify(answer[field])}`;
}

export class RunAnswers {
  first: { why: string; exchange: Exchange } | undefined;

  /** Reads an answer: the first that does not keep its request is kept. */
  see(exchange: Exchange): void {
    const { status } = exchange.response;
    if (this.first || status < 200 || status > 299 || !isObject(exchange.json)) return;
    const why =
      exchange.operation === "listDeployments"
        ? pageBreaksQuery(exchange.request.url, exchange.json)
        : createBreaksBody(exchange, exchange.json);
    if (why) this.first = { why, exchange };
  }
}

/** The registry of a run: one per configuration, as runIds. */
export const runAnswers = perRun(() => new RunAnswers());
