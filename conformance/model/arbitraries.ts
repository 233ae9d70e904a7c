/**
 * Valid request bodies and list queries generated with fast-check: every source the hosting kind allows with the
 * optional fields the per-source table of D-48 allows it, and every filter of List deployments.
 */
import fc from "fast-check";
import { deploymentStatuses, deploymentTypes } from "../../contract/index.js";
import type { Hosting } from "../cli/run-config.js";
import { sourcesFor } from "./data.js";

type Json = Record<string, unknown>;

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
/** A few tags only, so that an `image_version` filter drawn from the same set often matches (D-42). */
const imageTags = fc.constantFrom("1.0", "2.0", "latest");
const command = word.map((w) => `npm run ${w}`);
const uuid = fc.uuid({ version: 4 });

/**
 * Secrets with distinct names (D-54, D-55: values come back masked, names as given), in either letter case: a store that
 * folds a name's case changes it. Distinct in any case, so a target that compares names without case refuses none.
 */
const secrets = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/),
    value: fc.string({ minLength: 1, maxLength: 24 }),
  }),
  { maxLength: 3, selector: (s) => s.name.toLowerCase() },
);

/** References to cluster secrets, in no particular order (external_container only, D-69). */
const secretReferences = fc.array(
  fc.record({ name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,11}$/), secret_name: word, secret_key: word }),
  { minLength: 1, maxLength: 3 },
);

/** A few resource settings of the main workload, each within its schema's bounds. */
const resourceSpec = fc.record(
  {
    min_scale: fc.integer({ min: 0, max: 3 }),
    max_scale: fc.integer({ min: 3, max: 10 }),
    // one decimal: D-04 rounds cpu to it, so the value comes back as sent
    cpu: fc.constantFrom(0.5, 1, 1.5, 2),
    memory_mb: fc.integer({ min: 128, max: 4096 }),
  },
  { requiredKeys: [] },
);

/** Optional keys of an object: each present or absent. */
const optional = <T extends Json>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Partial<T>>;

/** A valid create-deployment body (without its name) for a source other than codehost, which needs an integration. */
function bodyFor(source: string): fc.Arbitrary<Json> {
  const image = fc.tuple(word, imageTags).map(([repo, tag]) => `registry.example.com/conformance/${repo}:${tag}`);
  switch (source) {
    case "external_container":
      return fc
        .record({
          image_uri: image,
          // every field the table allows this source, so a store that drops one in silence is seen
          config: optional({
            listener_id: uuid,
            listener_config: word.map((cluster_namespace) => ({ cluster_namespace })),
            custom_url: fc
              .tuple(word, fc.constantFrom("", "/", "/app/", "/App/Path"))
              .map(([w, path]) => `https://${w}.example.com${path}`),
            resource_spec: resourceSpec,
          }),
          references: fc.option(secretReferences, { nil: undefined }),
          secrets,
        })
        .map(({ image_uri, config, references, secrets }) => ({
          source,
          source_config: config,
          source_revision_config: { image_uri },
          secrets,
          ...(references ? { secret_references: references } : {}),
        }));
    case "internal_container":
      return fc.record({ image_uri: image, secrets }).map(({ image_uri, secrets }) => ({
        source,
        source_config: {},
        source_revision_config: { image_uri },
        secrets,
      }));
    case "internal_source":
      return fc
        .record({ config: optional({ install_command: command, build_command: command }), secrets, file: word })
        .map(({ config, secrets, file }) => ({
          source,
          source_config: config,
          source_revision_config: { source_tarball_path: `uploads/${file}.tar.gz`, graph_config_path: "graph.json" },
          secrets,
        }));
    default:
      return secrets.map((s) => ({ source, source_config: {}, source_revision_config: {}, secrets: s }));
  }
}

/** A valid body (without `name`) of any source the hosting kind offers without an integration. */
export function deploymentBodies(hosting: Hosting): fc.Arbitrary<Json> {
  return fc.oneof(...sourcesFor[hosting].filter((s) => s !== "codehost").map(bodyFor));
}

/**
 * A valid create-OAuth-provider body with random optional fields (code_challenge_method among `methods`, provider_type
 * among `vendors` or null); the caller adds a fresh `provider_id`.
 */
export function providerBodies(
  methods: readonly string[] = ["S256", "plain"],
  vendors: readonly string[] = ["microsoft", "salesforce", "slack"],
): fc.Arbitrary<Json> {
  return fc
    .record(
      {
        uses_pkce: fc.boolean(),
        code_challenge_method: fc.constantFrom(...methods),
        provider_type: fc.constantFrom<string | null>(...vendors, null),
        token_endpoint_auth_method: fc.constantFrom("none", "client_secret_basic", "client_secret_post"),
        client_secret: fc.string({ minLength: 1, maxLength: 40 }),
        name: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0),
      },
      { requiredKeys: ["name"] },
    )
    .map((optional) => ({
      client_id: "conformance-client",
      auth_url: "https://auth.example.com/oauth/authorize",
      token_url: "https://auth.example.com/oauth/token",
      ...optional,
    }));
}

/** Each list filter other than the ones that scope a query to a run (name_contains, deployment_ids). */
const filterFields = {
  status: fc.uniqueArray(fc.constantFrom(...deploymentStatuses), {
    minLength: 1,
    maxLength: 3,
  }),
  remote_reconciled: fc.boolean(),
  deployment_type: fc.constantFrom(...deploymentTypes),
  tag_value_ids: fc.array(uuid, { minLength: 1, maxLength: 2 }),
  // prefixes of the tags too: image_version is an exact match (D-42)
  image_version: fc.constantFrom("1.0", "2.0", "latest", "1", "late"),
};

/**
 * The other filters of a list query: none, one, or several combined. The kind is drawn with `constantFrom`, which
 * fast-check does not bias towards the largest value, so most queries keep a result to judge.
 */
function filtersOf(fields: Partial<typeof filterFields>): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.constantFrom("none", "none", "one", "one", "one", "several"), fc.constantFrom(...Object.keys(fields)))
    .chain(([kind, key]) => {
      if (kind === "none") return fc.constant({});
      if (kind === "one")
        return (fields[key as keyof typeof fields] as fc.Arbitrary<unknown>).map((v) => ({ [key]: v }));
      return optional(fields);
    });
}

/** Every other filter, status values (D-07) included. */
export const otherFilters: fc.Arbitrary<Json> = filtersOf(filterFields);

/** The other filters but status, whose values the interface spec does not state (D-07): what a MUST query may send. */
export const statedFilters: fc.Arbitrary<Json> = filtersOf((({ status, ...rest }) => rest)(filterFields));

/** `limit` biased to the small values that make many pages, with both bounds (1 and 100). */
export const limits = fc.oneof(
  fc.integer({ min: 1, max: 4 }),
  fc.constantFrom(1, 20, 100),
  fc.integer({ min: 1, max: 100 }),
);
