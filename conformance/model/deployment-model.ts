/**
 * A model of the deployment list (interface spec: List deployments; D-08, D-09, D-39 to D-43): what a run created,
 * and what any combination of filters, `limit` and `offset` must return from it.
 */
import type { DeploymentSource } from "../../contract/schemas.js";
import { imageSources, imageTag } from "../../contract/source-rules.js";
import { instant } from "../check-kit/helpers.js";

type Json = Record<string, unknown>;

/** The query of a list request as the model reads it (absent = no filter, D-63). */
export interface ListQuery {
  limit?: number;
  offset?: number;
  name_contains?: string;
  status?: string[];
  deployment_ids?: string[];
  remote_reconciled?: boolean;
  image_version?: string;
  deployment_type?: string;
  tag_value_ids?: string[];
}

/** One deployment as the model knows it: the create answer, and what the body decides about its filters. */
interface ModelDeployment {
  id: string;
  name: string;
  /** The create answer: every field of a later listing must equal it, state fields apart (D-12). */
  record: Json;
  /** D-42: the tag of `image_uri` for container sources, otherwise null. */
  imageVersion: string | null;
  /** D-40: whether `source_config.listener_id` was set. */
  remoteReconciled: boolean;
  /** The furthest state seen: a deployment only moves from AWAITING_DATABASE to READY (D-11, D-12). */
  statusSeen: string;
}

/** Whether a deployment matches a query: surely, surely not, or either (its state may move meanwhile). */
type Match = "yes" | "no" | "maybe";

/** The fields that change after create (D-12): a listing may differ from the create answer there. */
const stateFields = ["status", "updated_at", "active_revision_id"] as const;

/**
 * The fields the interface spec freezes at create (D-234): `name` and `source` ("Cannot be changed after creation") and
 * the read-only identity `id`, `tenant_id` and `created_at`. At MUST a listing must equal its create answer in these
 * only: any other field may be filled in or moved later (a build setting `image_version` or `repo_commit_sha`, a revision
 * id set once built); that they stay is D-12 and D-234, judged at SHOULD.
 */
const frozenFields = ["name", "source", "id", "tenant_id", "created_at"] as const;

/** What of a create answer a listing must still show: at MUST the frozen fields, at SHOULD all but the state fields (D-12, D-234). */
export function keptFields(record: Record<string, unknown>, level: "MUST" | "SHOULD"): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([k]) =>
      level === "MUST"
        ? (frozenFields as readonly string[]).includes(k)
        : !(stateFields as readonly string[]).includes(k),
    ),
  );
}

/** D-08: newest first, `id` descending on equal `created_at`. */
function newestFirst(a: ModelDeployment, b: ModelDeployment): number {
  const ta = instant(a.record.created_at) ?? 0n;
  const tb = instant(b.record.created_at) ?? 0n;
  if (ta !== tb) return ta > tb ? -1 : 1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The states a deployment seen in `statusSeen` may be in now. */
function possibleStates(statusSeen: string): string[] {
  return statusSeen === "AWAITING_DATABASE" ? ["AWAITING_DATABASE", "READY"] : [statusSeen];
}

/** Whether one deployment matches every filter of the query (D-39 to D-43). */
function matches(d: ModelDeployment, q: ListQuery): Match {
  // D-39: case-insensitive substring; `%` and `_` are plain characters.
  if (q.name_contains !== undefined && !d.name.toLowerCase().includes(q.name_contains.toLowerCase())) return "no";
  if (q.deployment_ids !== undefined && !q.deployment_ids.some((id) => id.toLowerCase() === d.id.toLowerCase()))
    return "no";
  if (q.remote_reconciled !== undefined && q.remote_reconciled !== d.remoteReconciled) return "no";
  if (q.image_version !== undefined && q.image_version !== d.imageVersion) return "no";
  if (q.deployment_type !== undefined && q.deployment_type !== "dev") return "no"; // D-43
  if (q.tag_value_ids !== undefined && q.tag_value_ids.length > 0) return "no"; // D-41
  if (q.status !== undefined) {
    const possible = possibleStates(d.statusSeen);
    const hits = possible.filter((s) => q.status!.includes(s)).length;
    if (hits === 0) return "no";
    if (hits < possible.length) return "maybe";
  }
  return "yes";
}

/** The deployments a run created, and the answers every list must give about them. */
export class DeploymentModel {
  readonly deployments: ModelDeployment[] = [];

  /** Records a created deployment from the body sent and the create answer. */
  add(body: Json, answer: Json): ModelDeployment {
    const revision = (body.source_revision_config ?? {}) as Json;
    const config = (body.source_config ?? {}) as Json;
    const d: ModelDeployment = {
      id: String(answer.id),
      name: String(body.name),
      record: answer,
      imageVersion: imageSources.includes(body.source as DeploymentSource) ? imageTag(revision.image_uri) : null,
      remoteReconciled: config.listener_id !== undefined && config.listener_id !== null,
      statusSeen: String(answer.status),
    };
    this.deployments.push(d);
    return d;
  }

  byId(id: string): ModelDeployment | undefined {
    return this.deployments.find((d) => d.id === id);
  }

  /** Every deployment the query surely returns and those it may return, in the order of D-08. */
  selection(q: ListQuery): { sure: ModelDeployment[]; maybe: ModelDeployment[] } {
    const sorted = [...this.deployments].sort(newestFirst);
    return {
      sure: sorted.filter((d) => matches(d, q) === "yes"),
      maybe: sorted.filter((d) => matches(d, q) === "maybe"),
    };
  }

  /**
   * The exact page (ids and returned offset, D-09) of a query, or undefined when a deployment whose state may be
   * moving could change it.
   */
  expectedPage(q: ListQuery): { ids: string[]; offset: number } | undefined {
    const { sure, maybe } = this.selection(q);
    if (maybe.length > 0) return undefined;
    const offset = q.offset ?? 0;
    const ids = sure.slice(offset, offset + (q.limit ?? 20)).map((d) => d.id);
    // D-09: request offset plus the number returned; past the end, the request's offset unchanged.
    return { ids, offset: offset + ids.length };
  }

  /** What is wrong with the ids a whole walk returned, against the model (D-08, D-09, D-39 to D-43). */
  walkProblems(q: ListQuery, got: string[]): string[] {
    const { sure, maybe } = this.selection(q);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const id of got) {
      if (seen.has(id)) problems.push(`${id} was returned twice`);
      seen.add(id);
    }
    const allowed = new Set([...sure, ...maybe].map((d) => d.id));
    const missing = sure.filter((d) => !seen.has(d.id)).map((d) => d.name);
    if (missing.length > 0) problems.push(`missing: ${missing.join(", ")}`);
    const extra = got.filter((id) => !allowed.has(id)).map((id) => this.byId(id)?.name ?? id);
    if (extra.length > 0) problems.push(`not matching the filters: ${extra.join(", ")}`);
    const known = got.map((id) => this.byId(id)).filter((d): d is ModelDeployment => d !== undefined);
    const ordered = [...known].sort(newestFirst);
    if (known.some((d, i) => d !== ordered[i]))
      problems.push(`order ${known.map((d) => d.name).join(", ")} is not newest first (D-08)`);
    return problems;
  }

  /** Records the state a listing shows; returns a problem when it moved backwards or to a state no rule gives. */
  observe(listed: Json): string | undefined {
    const d = this.byId(String(listed.id));
    if (!d) return undefined;
    const status = String(listed.status);
    if (!possibleStates(d.statusSeen).includes(status))
      return `${d.name} went from ${d.statusSeen} to ${status} (D-11, D-12: only AWAITING_DATABASE → READY)`;
    d.statusSeen = status;
    return undefined;
  }
}
