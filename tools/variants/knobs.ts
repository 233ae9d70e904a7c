/** The choices the interface spec leaves open, as knobs of the spec-only implementation (D-230): each value is legal. */

/** Every open choice of the spec-only implementation; `profileChoices` sets them as the reference profile does. */
export interface Knobs {
  /** Which sources are available (rules 2 and 3). */
  hosting: "cloud" | "self_hosted";
  /** Success status of operation 1 (the spec shows none). */
  providerCreateStatus: 200 | 201;
  /** Success status of operation 6 (the spec shows none). */
  deploymentCreateStatus: 200 | 201;
  /** `profile`: 422 for a body or query that breaks the stated schema, 400 for malformed JSON and unavailable sources; `400`: 400 for every client error. */
  clientErrorStatus: "profile" | "400";
  /** Error body: RFC 9457 problem, `{"error": "..."}` as application/json, or text/plain. */
  errorBody: "problem" | "plain-json" | "text";
  /** A second provider_id in an organization or deployment name in a tenant: 409, or accepted as another record. */
  duplicates: "409" | "accept";
  /** An unknown request field: ignored, or refused with the client error status. */
  unknownFields: "ignore" | "refuse";
  /** Order of the deployment list. */
  deploymentOrder: "newest" | "oldest" | "name";
  /** Order of the provider list. */
  providerOrder: "oldest" | "newest";
  /** Order of the repository lists. */
  repositoryOrder: "owner-name" | "id-desc";
  /** Returned `offset`: offset + returned count; the total once the end is reached (also past it); offset + limit on every page. */
  nextOffset: "consumed" | "total" | "stride";
  /** Status of a new deployment: AWAITING_DATABASE then READY after `readyAfterMs`, READY at once, or UNKNOWN for good. */
  initialStatus: "AWAITING_DATABASE" | "READY" | "UNKNOWN";
  /** How the key is sent: `X-Api-Key: KEY` or `Authorization: Bearer KEY`. */
  auth: "x-api-key" | "bearer";
  /** `X-Tenant-Id` picks one of the key's tenants; without it a key acts on its default tenant only and the header is ignored. */
  tenantHeader: boolean;
  /** A tenant the key does not reach (in `X-Tenant-Id`) and an integration of another tenant: 403 and 404 as the profile, or one status for both. */
  otherTenant: "profile" | 403 | 404;
  /** Deployment secret values in answers: masked, or as sent. */
  secrets: "masked" | "as-sent";
  /** `image_version` of a deployment: the tag of `image_uri` for container sources, always null, or absent. */
  imageVersion: "tag" | "null" | "absent";
  /** Optional response fields holding their default or null (provider `mcp_server_url`, `is_dynamic_client`, `token_endpoint_auth_method`; deployment `secret_references`) are sent, or left out. */
  optionalFields: "present" | "absent";
  /** SourceConfig and SourceRevisionConfig fields not sent: left out of the record, or returned as null. */
  configNulls: boolean;
  /** `name_contains`: case-insensitive or case-sensitive substring. */
  nameContains: "insensitive" | "sensitive";
  /** A `status` filter value that is no state, or a malformed id in `deployment_ids` or `tag_value_ids`: a client error, or matches nothing. */
  badFilterValue: "error" | "nothing";
  /** A body that is not `application/json`: 415, or the client error status. */
  mediaType: "415" | "client-error";
  /** A method a known path does not serve: 405 with Allow, or 404. */
  unknownMethod: 405 | 404;
  /** Provider `id` and `organization_id` (typed `string`, not `uuid`): UUIDs, or opaque strings such as `prov_12`. */
  providerIds: "uuid" | "opaque";
  /** date-time values: `2026-11-25T21:00:00.123Z`, or with microseconds and a `+00:00` offset. */
  timestamps: "z" | "offset";
  /** Content-Type of JSON answers: `application/json`, or with `; charset=utf-8`. */
  jsonType: "plain" | "charset";
  /** `latest_revision_id` of a new deployment (uuid or null): a revision id, or null until it is deployed. */
  latestRevision: "uuid" | "null-until-ready";
  /** Which fields each source requires (not shown by the spec): none, or a table of its own (server.ts `ownSourceTable`). */
  sourceRules: "none" | "own";
  /** The `status` filter: comma-separated states, or one state only (a comma is a client error). */
  statusFilter: "list" | "single";
  /** Requests a second each key may send (counted per key header, a missing key as one more), beyond which the answer is 429 with `Retry-After: 1`; 0 for no limit (the spec states none, D-380). */
  rateLimit: number;
  /** The rate limit's 429: with `Retry-After: 1`, or bare (RFC 6585 §4: it MAY carry one), as many production APIs answer. */
  rateLimitAnswer: "retry-after" | "bare";
  /** Fields set after the create: none, or `image_version` and `repo_commit_sha` filled in once the deployment is READY (D-234). */
  lateFields: "none" | "on-ready";
  /** Media type of success answers: the JSON knob's `application/json`, or `application/vnd.deployments.v2+json` (D-381). */
  successType: "json" | "vendor";
  /** Path of operation 4 (the spec shows none): the profile's `/v1/integrations/forge/codehost/{id}/repos`, or `/v1/managed-integrations/{id}/repositories`. */
  managedPath: "profile" | "own";
  /** How long AWAITING_DATABASE lasts. */
  readyAfterMs: number;
}

/** The reference profile's answer to every open choice; a variant changes some of them. */
export const profileChoices: Knobs = {
  hosting: "cloud",
  providerCreateStatus: 200,
  deploymentCreateStatus: 201,
  clientErrorStatus: "profile",
  errorBody: "problem",
  duplicates: "409",
  unknownFields: "ignore",
  deploymentOrder: "newest",
  providerOrder: "oldest",
  repositoryOrder: "owner-name",
  nextOffset: "consumed",
  initialStatus: "AWAITING_DATABASE",
  auth: "x-api-key",
  tenantHeader: true,
  otherTenant: "profile",
  secrets: "masked",
  imageVersion: "tag",
  optionalFields: "present",
  configNulls: false,
  nameContains: "insensitive",
  badFilterValue: "error",
  mediaType: "415",
  unknownMethod: 405,
  providerIds: "uuid",
  timestamps: "z",
  jsonType: "plain",
  latestRevision: "uuid",
  sourceRules: "none",
  statusFilter: "list",
  rateLimit: 0,
  rateLimitAnswer: "retry-after",
  lateFields: "none",
  successType: "json",
  managedPath: "profile",
  readyAfterMs: 200,
};
