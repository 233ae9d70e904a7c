/** The shape of one conformance check: a stable id, a level, tags, a statement and a spec pointer. */
import type { OperationId } from "../../contract/index.js";
import type { RunConfig } from "../cli/run-config.js";
import type { Exchange } from "../target/http-exchange.js";

/** MUST: stated by the interface specification. SHOULD: a decision of spec/decisions.md (D-NN). */
export type Level = "MUST" | "SHOULD";

/**
 * What a check needs from the configuration or the target to be able to run:
 * - write: it creates records (skipped with --read-only);
 * - state: the target must remember what was created (skipped against a stateless mock);
 * - integration / managedIntegration: --integration-id / --managed-integration-id;
 * - otherApiKey: --other-api-key (isolation checks);
 * - otherTenant: --other-tenant-id, a second tenant of the same key (per-tenant data, D-14/D-15);
 * - cloud / self_hosted: only for that hosting kind;
 * - server: judges error details and strictness a schema-driven mock does not reproduce (skipped with --stateless).
 */
export type Need =
  | "write"
  | "state"
  | "server"
  | "integration"
  | "managedIntegration"
  | "otherApiKey"
  | "otherTenant"
  | "cloud"
  | "self_hosted";

/** A record the suite created on the target (the interface has no delete, so the report lists them). */
export interface CreatedResource {
  kind: "deployment" | "oauth_provider";
  id: string;
  name: string;
  /** Which key created it: the main key or the other organization's key. */
  key: "main" | "other";
}

/** Who shares a fixture: the checks of one area, or every check of the run. */
export type FixtureScope = "area" | "run";

/** What a check can use: the configuration, an HTTP sender that records every exchange, fixtures. */
export interface CheckContext {
  readonly config: RunConfig;
  /** The level of the running check: at MUST an input only a decision makes valid is no verdict when refused (D-180). */
  readonly level: Level;
  /** Prefix of every name this run creates, e.g. `cf-a1b2c3-`. */
  readonly prefix: string;
  /** Sends one request and records the exchange. 2xx answers of contract operations are validated against the schema. */
  send(request: SendRequest): Promise<Exchange>;
  /** A fresh name carrying the run prefix: `<prefix><label>-<n>`. */
  name(label: string): string;
  /** Records a created resource for the report. */
  created(resource: CreatedResource): void;
  /**
   * Memoizes a fixture shared by the checks of one area (e.g. a set of deployments to page through) or, with scope
   * "run", by every check of the run (a record they only read back: the organization's room is finite, D-245).
   */
  fixture<T>(key: string, make: () => Promise<T>, scope?: FixtureScope): Promise<T>;
  /** Marks the check as skipped with a reason (when it discovers at run time that it cannot run). */
  skip(reason: string): never;
  /** Adds a note to the report of this check (e.g. the fast-check seed). */
  note(text: string): void;
}

/** One HTTP request as a check describes it. */
export interface SendRequest {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined> | string;
  headers?: Record<string, string>;
  /** A JSON value to send as the body (Content-Type application/json). */
  json?: unknown;
  /** A raw body, sent as is (with headers as given): text is sent as UTF-8, bytes as they are. */
  raw?: string | Uint8Array;
  /** Send the body in chunks with no Content-Length (RFC 9112 §7.1), as a client streaming it does. */
  streamed?: boolean;
  /** Which key to send: the main key (default), the other organization's key, none, or a literal wrong key. */
  /** A given key is shown in reports unless `masked`: a near miss of the user's key is masked as the key is. */
  auth?: "main" | "other" | "none" | { key: string; masked?: boolean };
  /** Whether to send X-Tenant-Id: the configured tenant (default), none, or a given value. */
  tenant?: "default" | "none" | string;
  /** The contract operation this request exercises, for schema validation of its answer. */
  operation?: OperationId;
  /** Skip schema validation of a 2xx answer (when the check itself judges the shape). */
  noValidate?: boolean;
}

/** One check of the suite. */
export interface Check {
  /** Stable identifier; never renamed or reused (conformance/check-ids.json). */
  id: string;
  level: Level;
  /** Operation ids and area names, usable with --only / --skip. */
  tags: string[];
  /** One line: what the check verifies. */
  statement: string;
  /** Where the rule is written: "interface-spec: <section>" or the decisions "D-NN". */
  specRef: string;
  needs: Need[];
  run(ctx: CheckContext): Promise<void>;
}

/** A check failed: why, and the exchange that shows it. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.name = "CheckFailure";
  }
}

/** A check decided at run time that it cannot run (e.g. the target holds too little data in --read-only mode). */
export class CheckSkip extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "CheckSkip";
  }
}
