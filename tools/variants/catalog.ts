/** The legal variants: the spec-only implementation with choices other than the profile's, each of which must pass every MUST check (D-232). */
import type { Knobs } from "./knobs.js";

/** One legal implementation: the knobs it turns away from the profile, and how its run's flags differ. */
export interface Variant {
  id: string;
  /** What it does differently, in one line. */
  description: string;
  knobs: Partial<Knobs>;
  /** Flags the suite needs for it beyond the demo flags (e.g. `--auth-scheme bearer`). */
  extraFlags?: string[];
  /** Demo flags it has nothing to give for (e.g. no second tenant without a tenant header). */
  dropFlags?: string[];
}

/** Every legal variant; each runs in both hosting kinds. */
export const variants: Variant[] = [
  { id: "profile-choices", description: "the spec-only implementation with the profile's choices", knobs: {} },
  {
    id: "create-200",
    description: "both creates answer 200",
    knobs: { providerCreateStatus: 200, deploymentCreateStatus: 200 },
  },
  {
    id: "create-201",
    description: "both creates answer 201",
    knobs: { providerCreateStatus: 201, deploymentCreateStatus: 201 },
  },
  {
    id: "error-json",
    description: 'error bodies are {"error": "..."} as application/json',
    knobs: { errorBody: "plain-json" },
  },
  { id: "error-text", description: "error bodies are text/plain", knobs: { errorBody: "text" } },
  {
    id: "all-400",
    description: "400 for every client error (no 415, no 422)",
    knobs: { clientErrorStatus: "400", mediaType: "client-error" },
  },
  { id: "no-409", description: "duplicate names and provider_ids are accepted", knobs: { duplicates: "accept" } },
  { id: "strict-fields", description: "an unknown request field is refused", knobs: { unknownFields: "refuse" } },
  {
    id: "other-orders",
    description: "deployments by name, providers newest first, repositories by id descending",
    knobs: { deploymentOrder: "name", providerOrder: "newest", repositoryOrder: "id-desc" },
  },
  { id: "oldest-first", description: "deployments oldest first", knobs: { deploymentOrder: "oldest" } },
  {
    id: "offset-total",
    description: "the returned offset is the total once the end is reached, also past it",
    knobs: { nextOffset: "total" },
  },
  {
    id: "offset-stride",
    description: "the returned offset is offset + limit on every page",
    knobs: { nextOffset: "stride" },
  },
  { id: "ready-at-once", description: "a new deployment is READY at once", knobs: { initialStatus: "READY" } },
  { id: "status-unknown", description: "a new deployment is UNKNOWN for good", knobs: { initialStatus: "UNKNOWN" } },
  {
    id: "bearer",
    description: "the key is sent as Authorization: Bearer",
    knobs: { auth: "bearer" },
    extraFlags: ["--auth-scheme", "bearer"],
  },
  {
    id: "no-tenant-header",
    description: "no tenant header: a key acts on its one tenant",
    knobs: { tenantHeader: false },
    dropFlags: ["--other-tenant-id"],
  },
  { id: "secrets-as-sent", description: "secret values are returned as sent", knobs: { secrets: "as-sent" } },
  { id: "image-version-null", description: "image_version is always null", knobs: { imageVersion: "null" } },
  { id: "image-version-absent", description: "image_version is never sent", knobs: { imageVersion: "absent" } },
  {
    id: "sparse",
    description: "optional response fields holding their default or null are left out",
    knobs: { optionalFields: "absent" },
  },
  { id: "config-nulls", description: "config fields not sent come back as null", knobs: { configNulls: true } },
  {
    id: "other-tenant-404",
    description: "404 for a tenant or integration the key does not reach",
    knobs: { otherTenant: 404 },
  },
  {
    id: "other-tenant-403",
    description: "403 for a tenant or integration the key does not reach",
    knobs: { otherTenant: 403 },
  },
  {
    id: "literal-filters",
    description: "name_contains is case-sensitive; a malformed filter value matches nothing",
    knobs: { nameContains: "sensitive", badFilterValue: "nothing" },
  },
  {
    id: "opaque-provider-ids",
    description: "provider id and organization_id are opaque strings, not UUIDs",
    knobs: { providerIds: "opaque" },
  },
  {
    id: "offset-timestamps",
    description: "date-times carry microseconds and a +00:00 offset; JSON is labelled with a charset",
    knobs: { timestamps: "offset", jsonType: "charset" },
  },
  {
    id: "revision-on-ready",
    description: "latest_revision_id is null until the deployment is READY",
    knobs: { latestRevision: "null-until-ready" },
  },
  {
    id: "own-source-rules",
    description:
      "a per-source table of its own (codehost needs integration_id, repo_url, repo_ref; containers image_uri; ...)",
    knobs: { sourceRules: "own" },
  },
  { id: "single-status", description: "the status filter takes one state only", knobs: { statusFilter: "single" } },
  {
    id: "rate-limited",
    description: "20 requests a second per key, then 429 with Retry-After: 1 (D-380)",
    knobs: { rateLimit: 20 },
  },
  {
    id: "rate-limited-bare",
    description: "20 requests a second per key, then 429 without Retry-After (RFC 6585 §4: it may carry one; D-380)",
    knobs: { rateLimit: 20, rateLimitAnswer: "bare" },
  },
  {
    id: "late-fields",
    description: "image_version and repo_commit_sha are filled in once the deployment is READY (D-234)",
    knobs: { lateFields: "on-ready" },
  },
  {
    id: "vendor-json",
    description: "success answers are application/vnd.deployments.v2+json (D-381)",
    knobs: { successType: "vendor" },
  },
  {
    id: "own-managed-path",
    description:
      "operation 4 is GET /v1/managed-integrations/{integration_id}/repositories, given by --operation-path (D-382)",
    knobs: { managedPath: "own" },
    extraFlags: [
      "--operation-path",
      "listManagedCodehostRepositories=GET /v1/managed-integrations/{integration_id}/repositories",
    ],
  },
  { id: "method-404", description: "a method a path does not serve is 404", knobs: { unknownMethod: 404 } },
  {
    id: "all-at-once",
    description: "every choice above that can be combined, in one implementation",
    knobs: {
      providerCreateStatus: 201,
      deploymentCreateStatus: 200,
      clientErrorStatus: "400",
      errorBody: "plain-json",
      duplicates: "accept",
      unknownFields: "refuse",
      deploymentOrder: "name",
      providerOrder: "newest",
      repositoryOrder: "id-desc",
      nextOffset: "total",
      initialStatus: "UNKNOWN",
      auth: "bearer",
      tenantHeader: false,
      otherTenant: 404,
      secrets: "as-sent",
      imageVersion: "null",
      optionalFields: "absent",
      configNulls: true,
      nameContains: "sensitive",
      badFilterValue: "nothing",
      mediaType: "client-error",
      unknownMethod: 404,
      providerIds: "opaque",
      timestamps: "offset",
      jsonType: "charset",
      sourceRules: "own",
      statusFilter: "single",
    },
    extraFlags: ["--auth-scheme", "bearer"],
    dropFlags: ["--other-tenant-id"],
  },
];
