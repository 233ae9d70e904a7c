/** Every deployment, revision and OAuth provider id the answers of one run show, each with the one record it names (LAW-005). */
import type { Exchange } from "../target/http-exchange.js";
import { perRun } from "./per-run.js";

type Json = Record<string, unknown>;

/** An id shown naming a second record: the record it named first, the second, and the answer that showed the second. */
interface IdClash {
  id: string;
  first: string;
  second: string;
  exchange: Exchange;
}

/** The organization whose key sent a request: the two keys of the configuration are two organizations; another key none known. */
type KeyOrganization = "main" | "other" | undefined;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The records of a 2xx answer of the operations that answer deployments or providers. */
export function recordsOf(exchange: Exchange): { kind: "deployment" | "provider"; records: Json[] } | undefined {
  const { status } = exchange.response;
  if (status < 200 || status > 299) return undefined;
  const json = exchange.json;
  switch (exchange.operation) {
    case "createDeployment":
      return { kind: "deployment", records: isObject(json) ? [json] : [] };
    case "listDeployments":
      return {
        kind: "deployment",
        records: isObject(json) && Array.isArray(json.resources) ? json.resources.filter(isObject) : [],
      };
    case "createOAuthProvider":
      return { kind: "provider", records: isObject(json) ? [json] : [] };
    case "listOAuthProviders":
      return { kind: "provider", records: Array.isArray(json) ? json.filter(isObject) : [] };
    default:
      return undefined;
  }
}

/** The most clashes kept: LAW-005 reports the first. */
const keptClashes = 10;

export class RunIds {
  private readonly owners = new Map<string, string>();
  readonly clashes: IdClash[] = [];
  /** The first list answer that held one record twice (LAW-006), with that record's id. */
  repeated: { id: string; exchange: Exchange } | undefined;

  /**
   * Reads an answer. A deployment is its name in its tenant (tenant_id: names are unique in a tenant and never
   * change); a provider its provider_id in the organization of the key that sent the request (a key of neither
   * organization the configuration names leaves providers unread); a revision belongs to its deployment.
   */
  see(exchange: Exchange, organization: KeyOrganization): void {
    const answer = recordsOf(exchange);
    if (!answer) return;
    if (!this.repeated) {
      // one pass over a set: a page of many records costs its length, not its square (D-460)
      const seen = new Set<string>();
      const twice = answer.records.map((r) => String(r.id).toLowerCase()).find((id) => seen.size === seen.add(id).size);
      if (twice !== undefined) this.repeated = { id: twice, exchange };
    }
    for (const record of answer.records) {
      if (answer.kind === "provider") {
        if (organization !== undefined)
          this.own(
            record.id,
            `OAuth provider ${String(record.provider_id)} of the ${organization} organization`,
            exchange,
          );
        continue;
      }
      const who = `deployment ${String(record.name)} of tenant ${String(record.tenant_id)}`;
      this.own(record.id, who, exchange);
      for (const field of ["latest_revision_id", "active_revision_id"])
        this.own(record[field], `a revision of ${who}`, exchange);
    }
  }

  private own(id: unknown, who: string, exchange: Exchange): void {
    if (typeof id !== "string") return;
    const key = id.toLowerCase();
    const first = this.owners.get(key);
    if (first === undefined) this.owners.set(key, who);
    // a few clashes say what LAW-005 reports; each keeps its answer, so a run of clashing answers keeps no more (D-460)
    else if (first !== who && this.clashes.length < keptClashes)
      this.clashes.push({ id, first, second: who, exchange });
  }
}

/** The registry of a run: one per configuration, so targets judged in one process never mix their ids. */
export const runIds = perRun(() => new RunIds());
