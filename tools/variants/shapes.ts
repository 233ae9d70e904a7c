/** The request bodies of operations 1 and 6 as the interface spec's tables state them, and a validator of a value against them (D-230). */

type Field = { shape: Shape; required?: boolean; nullable?: boolean };

/** A type of the spec's notation; `record` is an object with known fields, `free` an object whose inner fields are not shown. */
type Shape =
  | { kind: "string" | "boolean" | "integer" | "number" | "uuid" | "free" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "record"; fields: Record<string, Field> }
  | { kind: "array"; items: Shape };

const string: Shape = { kind: "string" };
const integer: Shape = { kind: "integer" };
const number: Shape = { kind: "number" };
const boolean: Shape = { kind: "boolean" };
const free: Shape = { kind: "free" };
const record = (fields: Record<string, Shape | Field>): Shape => ({
  kind: "record",
  fields: Object.fromEntries(
    Object.entries(fields).map(([name, f]) => [name, "shape" in f ? f : { shape: f, nullable: true }]),
  ),
});
const arrayOf = (items: Shape): Shape => ({ kind: "array", items });

const sources = [
  "codehost",
  "external_container",
  "internal_container",
  "internal_source",
  "internal_template",
] as const;

const volumeMount = record({
  name: string,
  mountPath: string,
  subPath: string,
  mountPropagation: string,
  subPathExpr: string,
  readOnly: boolean,
});

const container = record({
  name: string,
  image: string,
  imagePullPolicy: string,
  workingDir: string,
  restartPolicy: string,
  command: arrayOf(string),
  args: arrayOf(string),
  env: arrayOf(record({ name: string, value: string, valueFrom: free })),
  envFrom: arrayOf(free),
  resources: record({ limits: free, requests: free }),
  volumeMounts: arrayOf(volumeMount),
  securityContext: free,
});

const scaled = (names: string[], shape: Shape) => Object.fromEntries(names.map((n) => [n, shape]));

const resourceSpec = record({
  ...scaled(
    [
      "min_scale",
      "max_scale",
      "memory_mb",
      "memory_limit_mb",
      "queue_min_scale",
      "queue_max_scale",
      "queue_memory_mb",
      "queue_memory_limit_mb",
      "orchestrator_memory_mb",
      "orchestrator_memory_limit_mb",
      "orchestrator_min_scale",
      "orchestrator_max_scale",
      "executor_memory_mb",
      "executor_memory_limit_mb",
      "cache_memory_mb",
      "cache_memory_limit_mb",
      "db_memory_mb",
      "db_memory_limit_mb",
      "db_storage_gi",
      "db_max_connections",
    ],
    integer,
  ),
  ...scaled(
    [
      "cpu",
      "cpu_limit",
      "queue_cpu",
      "queue_cpu_limit",
      "orchestrator_cpu",
      "orchestrator_cpu_limit",
      "executor_cpu",
      "executor_cpu_limit",
      "cache_cpu",
      "cache_cpu_limit",
      "db_cpu",
      "db_cpu_limit",
    ],
    number,
  ),
  labels: free,
  annotations: free,
  service_account_name: string,
  image_pull_secrets: arrayOf(record({ name: string })),
  volumes: arrayOf(
    record({
      name: string,
      ...scaled(
        ["configMap", "secret", "emptyDir", "persistentVolumeClaim", "nfs", "projected", "downwardAPI", "csi"],
        free,
      ),
    }),
  ),
  volume_mounts: arrayOf(volumeMount),
  init_containers: arrayOf(container),
  sidecars: arrayOf(container),
});

const uuid: Shape = { kind: "uuid" };

/** Operation 1's body. */
export const providerBody = record({
  provider_id: { shape: string, required: true },
  name: { shape: string, required: true },
  client_id: { shape: string, required: true },
  auth_url: { shape: string, required: true },
  token_url: { shape: string, required: true },
  client_secret: { shape: string, nullable: true },
  uses_pkce: { shape: boolean },
  code_challenge_method: { shape: string },
  provider_type: { shape: { kind: "enum", values: ["<vendor_1>", "<vendor_2>", "<vendor_3>"] }, nullable: true },
  token_endpoint_auth_method: {
    shape: { kind: "enum", values: ["none", "client_secret_basic", "client_secret_post"] },
  },
});

/** Operation 6's body. */
export const deploymentBody = record({
  name: { shape: string, required: true },
  source: { shape: { kind: "enum", values: sources }, required: true },
  source_config: {
    required: true,
    shape: record({
      integration_id: uuid,
      repo_url: string,
      build_on_push: boolean,
      custom_url: string,
      resource_spec: resourceSpec,
      listener_id: uuid,
      listener_config: record({ cluster_namespace: string }),
      install_command: string,
      build_command: string,
    }),
  },
  source_revision_config: {
    required: true,
    shape: record({ repo_ref: string, graph_config_path: string, image_uri: string, source_tarball_path: string }),
  },
  secrets: { shape: arrayOf(record({ name: { shape: string }, value: { shape: string } })), required: true },
  secret_references: {
    shape: arrayOf(record({ name: { shape: string }, secret_name: { shape: string }, secret_key: { shape: string } })),
    nullable: true,
  },
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The first way `value` breaks `shape`, or undefined; `strict` also refuses fields the shape does not name. */
export function breach(value: unknown, shape: Shape, at: string, strict: boolean): string | undefined {
  switch (shape.kind) {
    case "string":
      return typeof value === "string" ? undefined : `${at} must be a string`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${at} must be a boolean`;
    case "integer":
      return Number.isInteger(value) ? undefined : `${at} must be an integer`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : `${at} must be a number`;
    case "uuid":
      return typeof value === "string" && uuidPattern.test(value) ? undefined : `${at} must be a UUID`;
    case "free":
      return isPlainObject(value) ? undefined : `${at} must be an object`;
    case "enum":
      return typeof value === "string" && shape.values.includes(value)
        ? undefined
        : `${at} must be one of ${shape.values.join(", ")}`;
    case "array": {
      if (!Array.isArray(value)) return `${at} must be an array`;
      for (const [i, item] of value.entries()) {
        const found = breach(item, shape.items, `${at}[${i}]`, strict);
        if (found) return found;
      }
      return undefined;
    }
    case "record": {
      if (!isPlainObject(value)) return `${at} must be an object`;
      for (const [name, field] of Object.entries(shape.fields)) {
        const v = value[name];
        if (v === undefined) {
          if (field.required) return `${at}.${name} is required`;
        } else if (v === null) {
          if (!field.nullable) return `${at}.${name} must not be null`;
        } else {
          const found = breach(v, field.shape, `${at}.${name}`, strict);
          if (found) return found;
        }
      }
      if (strict) {
        const unknown = Object.keys(value).find((k) => !(k in shape.fields));
        if (unknown) return `${at}.${unknown} is not a field of this request`;
      }
      return undefined;
    }
  }
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
