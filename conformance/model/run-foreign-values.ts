/**
 * The first record of a run that shows a value sent only in another record's body (LAW-021), whichever check sent the
 * creates: a deployment with no secret_references that shows the ones another create sent, a resource spec carried over
 * from the create before. A record is what its own create sent, so a string of another accepted body that its own
 * body does not hold cannot be in it.
 */
import { enumeratedWords } from "../../contract/index.js";
import type { Exchange } from "../target/http-exchange.js";
import { perRun } from "./per-run.js";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Shorter strings (a branch, a tag, a sidecar's name) may be any record's own by chance or by a target's default. */
const shortest = 8;

/**
 * Members not read: a secret's value comes back masked and a client_secret not at all, and the members a target sets
 * itself (ids, owners, times, status, revisions, the image version it derives) hold no value a body sent.
 */
const unread = new Set([
  "value",
  "client_secret",
  "id",
  "tenant_id",
  "organization_id",
  "created_at",
  "updated_at",
  "status",
  "latest_revision_id",
  "active_revision_id",
  "image_version",
  "repo_commit_sha",
  "mcp_server_url",
]);

/**
 * Every string of at least `shortest` characters in a JSON value, at any depth, but for the members not read and the
 * contract's enumerated words (a default such as client_secret_post is every record's to hold).
 */
function stringsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    // a uuid is one id in either letter case (RFC 9562 §4, D-190): a target may write back the one it was sent in lower case
    if (value.length >= shortest && !enumeratedWords.has(value))
      out.add(uuid.test(value) ? value.toLowerCase() : value);
  } else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) if (!unread.has(key)) stringsOf(item, out);
  return out;
}

/** The records of an answer: a create's record, a deployment page's resources, the providers list's items. */
function recordsOf(exchange: Exchange): Json[] {
  const body = exchange.json;
  if (exchange.operation === "listDeployments" && isObject(body) && Array.isArray(body.resources))
    return body.resources.filter(isObject);
  if (exchange.operation === "listOAuthProviders" && Array.isArray(body)) return body.filter(isObject);
  return isObject(body) ? [body] : [];
}

const creates = new Set(["createDeployment", "createOAuthProvider"]);
const lists = new Set(["listDeployments", "listOAuthProviders"]);

export class RunForeignValues {
  first: { why: string; exchange: Exchange } | undefined;
  /** The strings each accepted create sent, by the id of the record it made. */
  private readonly sent = new Map<string, Set<string>>();
  /** Every such string, with the id of a record whose body held it. */
  private readonly sentBy = new Map<string, string>();

  /** Reads an answer: an accepted create joins the run's bodies; each record of the run it shows is judged. */
  see(exchange: Exchange): void {
    const { status } = exchange.response;
    const operation = exchange.operation ?? "";
    if (status < 200 || status > 299 || !(creates.has(operation) || lists.has(operation))) return;
    const records = recordsOf(exchange);
    if (creates.has(operation)) this.remember(exchange, records[0]);
    if (this.first) return;
    for (const record of records) {
      const why = this.foreign(record);
      if (why) {
        this.first = { why, exchange };
        return;
      }
    }
  }

  /** Keeps the strings an accepted create sent, under the id of the record it answered with. */
  private remember(exchange: Exchange, record: Json | undefined): void {
    if (!record || typeof record.id !== "string" || this.sent.has(record.id)) return;
    if (exchange.request.body === undefined || exchange.request.bodyTruncated) return;
    let body: unknown;
    try {
      body = JSON.parse(exchange.request.body);
    } catch {
      return;
    }
    const strings = stringsOf(body);
    this.sent.set(record.id, strings);
    for (const text of strings) if (!this.sentBy.has(text)) this.sentBy.set(text, record.id);
  }

  /** Why a record of the run shows a string another create sent and its own did not, if it does. */
  private foreign(record: Json): string | undefined {
    const own = typeof record.id === "string" ? this.sent.get(record.id) : undefined;
    if (!own) return undefined;
    for (const text of stringsOf(record)) {
      const from = this.sentBy.get(text);
      if (from !== undefined && from !== record.id && !own.has(text))
        return `the record ${String(record.id)} shows ${JSON.stringify(text)}, which its own create did not send and the create of ${from} did`;
    }
    return undefined;
  }
}

/** The registry of a run: one per configuration, as runIds. */
export const runForeignValues = perRun(() => new RunForeignValues());
