/** Both sides of every bound of the deployment create body and list query, derived from the contract (D-191): lengths (D-31), counts (D-32), nullable fields (D-68), name patterns (D-37, D-116), uuid spellings (D-190) and the per-source edges (D-48, D-51). */
import { operation, type SchemaObject } from "../../contract/index.js";
import { ensure, expect2xx, expectStatus, isObject } from "../check-kit/assert.js";
import { createDeployment, firstRepository, type Json, listDeployments, paths } from "../check-kit/helpers.js";
import { problemFaults } from "../check-kit/problem-faults.js";
import { sameJson } from "../check-kit/same-json.js";
import { branches } from "../check-kit/shared-providers.js";
import { perSourceRules, ruleSample } from "../model/body-source-rules.js";
import {
  deploymentBody,
  outOfProfile,
  plainSource,
  type RepositoryRecord,
  type Source,
  sourcesFor,
} from "../model/data.js";
import { maxStoredConfigBytes, storedBytes } from "../model/stored-bytes.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal, judgeEach, noVerdictPrefix } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";

const tags = ["createDeployment", "bounds"];
const createBody = operation("createDeployment").requestBody?.schema ?? {};
const listParameters = operation("listDeployments").parameters.filter((p) => p.in === "query");

/** One field of the create body: its path (`"0"` stands for an array item) and its schema. */
interface Field {
  path: string[];
  schema: SchemaObject;
}

/** Walked as a field, not into: the bounds inside resource_spec are judged by RES-001 to RES-003 (D-133). */
const notWalkedInto = new Set(["resource_spec"]);

/** Every field of a schema, depth first, through object properties and array items. */
function walk(schema: SchemaObject, path: string[] = []): Field[] {
  const out: Field[] = path.length > 0 ? [{ path, schema }] : [];
  if (notWalkedInto.has(path.at(-1)!)) return out;
  for (const b of branches(schema)) {
    for (const [key, inner] of Object.entries(b.properties ?? {}))
      out.push(...walk(inner as SchemaObject, [...path, key]));
    if (isObject(b.items)) out.push(...walk(b.items as SchemaObject, [...path, "0"]));
  }
  return out;
}

const fields = walk(createBody);
const label = (path: string[]) => path.join(".");
/** A path with every array index read as the first item's, to look a field up by its place in the schema. */
const shape = (path: string[]) => label(path.map((k) => (/^\d+$/.test(k) ? "0" : k)));
const pointer = (path: string[]) => `/${path.join("/")}`;

/** The first branch of a field's schema with this type. */
const branchOf = (f: Field, type: string) => branches(f.schema).find((b) => b.type === type);

/** Every string field with a maxLength, and every array with a maxItems. */
const lengthFields = fields.flatMap((f) => {
  const max = branchOf(f, "string")?.maxLength;
  return max === undefined ? [] : [{ ...f, max }];
});
const countFields = fields.flatMap((f) => {
  const array = branchOf(f, "array");
  return array?.maxItems === undefined ? [] : [{ ...f, max: array.maxItems }];
});
const nullableFields = fields.filter((f) => branchOf(f, "null") !== undefined);
/** The secret name rule of D-116 is the server's, not the schema's: it is named here, beside the schema's patterns. */
const secretNamePattern = "^[A-Za-z_][A-Za-z0-9_.-]*$";
const patternFields = [
  ...fields.flatMap((f) => {
    const string = branchOf(f, "string");
    return string?.pattern === undefined
      ? []
      : [{ path: f.path, pattern: string.pattern, max: string.maxLength ?? 255 }];
  }),
  { path: ["secrets", "0", "name"], pattern: secretNamePattern, max: 255 },
];

/** Fields whose value D-49 pins to a repository record: no made-up value at a bound can be accepted. */
const pinnedByRepository = new Set([
  "source_config.integration_id",
  "source_config.repo_url",
  "source_revision_config.repo_ref",
]);
/** Fields returned masked, never as sent (D-55). */
const masked = new Set(["secrets.0.value"]);

/** The key of the per-source table (D-48) a field falls under; secrets and the name are allowed for every source. */
function ruleKey(path: string[]): string {
  return path[0] === "source_config" || path[0] === "source_revision_config" ? `${path[0]}.${path[1]}` : path[0]!;
}
const ruleOf = (path: string[], source: Source) => perSourceRules[ruleKey(path)]?.[source] ?? "O";

/**
 * A source of the hosting kind whose per-source rule for the field is not `rule`, the plain source first: not F to carry
 * a value, not R to leave it null. Never codehost: its own fields are pinned by D-49, and it needs an integration.
 */
function sourceWhereNot(ctx: CheckContext, path: string[], rule: "F" | "R"): Source | undefined {
  const order = [plainSource(ctx.config.hosting), ...sourcesFor[ctx.config.hosting]];
  return order.filter((s) => s !== "codehost").find((s) => ruleOf(path, s) !== rule);
}

/** A schema-valid item of each array of the body. */
const itemSamples: Record<string, Json> = {
  secrets: { name: "CF_BOUND", value: "value" },
  secret_references: (ruleSample("secret_references") as Json[])[0]!,
};

/** The value at a path of a JSON value. */
function valueAt(value: unknown, path: string[]): unknown {
  let node = value;
  for (const key of path) node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
  return node;
}

/** Sets a value at a path, making the objects on the way and one sample item of an array on the way. */
function place(body: Json, path: string[], value: unknown): void {
  let node = body as Record<string, unknown>;
  path.slice(0, -1).forEach((key, i) => {
    if (path[i + 1] === "0") {
      if (!Array.isArray(node[key]) || (node[key] as unknown[]).length === 0)
        node[key] = [structuredClone(itemSamples[key])];
    } else if (!isObject(node[key]) && !Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  });
  node[path.at(-1)!] = value;
}

/** A schema-valid string to start from: what the body holds there, else the per-source table's sample. */
function baseString(body: Json, path: string[]): string {
  const held = valueAt(body, path);
  if (typeof held === "string") return held;
  const sample = ruleSample(path.join("."));
  return typeof sample === "string" ? sample : "bound";
}

/** A value of exactly `length` characters grown from a valid one: inside the last path segment of a tagged image, after a `/` of a URL, else at the end. */
export function grow(base: string, length: number): string {
  if (base.length >= length) return base.slice(0, length);
  const tagged = /^(.*\/[^/:]+)(:[\w.-]+)$/.exec(base);
  if (tagged) return tagged[1] + "x".repeat(length - base.length) + tagged[2];
  if (base.includes("://")) return `${base}/${"x".repeat(length - base.length - 1)}`;
  return base + "x".repeat(length - base.length);
}

/** A fresh valid body of a source (codehost from the configured integration's first repository). */
async function bodyOf(ctx: CheckContext, source: Source, name = `${outOfProfile}bnd`): Promise<Json> {
  const repository = source === "codehost" ? await firstRepository(ctx) : undefined;
  return deploymentBody(ctx.name(name), source, repository);
}

/** Sends a create and records what it created. */
async function tryCreate(ctx: CheckContext, body: Json): Promise<Exchange> {
  const ex = await ctx.send({ method: "POST", path: paths.deployments, json: body, operation: "createDeployment" });
  if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
    ctx.created({ kind: "deployment", id: ex.json.id, name: String(body.name), key: "main" });
  return ex;
}

/** Fails unless the answer is a 422 problem detail of the contract (D-16) whose errors[] names the body field or query parameter. */
function expect422Naming(ex: Exchange, what: string, by: { pointer: string } | { parameter: string }): void {
  expectStatus(ex, 422, what);
  const [fault] = problemFaults(422, ex.response.headers["content-type"] ?? "", ex.json);
  ensure(fault === undefined, `${what}: ${fault} (D-16)`, ex);
  const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
  const [key, want] = Object.entries(by)[0]!;
  ensure(
    errors.some((e) => isObject(e) && e[key] === want),
    `${what}: the 422 does not name ${want} in errors[].${key}`,
    ex,
  );
}

/** BOUND-019: a 422 naming the second secret's name, with a detail sentence for it (D-16). */
function expectSecretRefused(ex: Exchange, what: string): void {
  expect422Naming(ex, what, { pointer: "/secrets/1/name" });
  const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
  ensure(
    errors.some(
      (e) => isObject(e) && e.pointer === "/secrets/1/name" && typeof e.detail === "string" && e.detail.trim() !== "",
    ),
    `${what}: the errors[] item naming /secrets/1/name has no detail sentence`,
    ex,
  );
}

/** Fails unless each sent value at a path comes back unchanged (masked fields only by their count). */
function expectEchoed(ex: Exchange, record: Json, sent: Json, path: string[], what: string): void {
  if (masked.has(shape(path))) return;
  const got = valueAt(record, path);
  const want = valueAt(sent, path);
  ensure(
    sameJson(got, want),
    `${what}: ${label(path)} came back as ${JSON.stringify(got)?.slice(0, 80)}, not as sent`,
    ex,
  );
}

/** A body with `count` distinct items in the array at `path`: each string of the sample item suffixed with its index. */
function withItems(body: Json, path: string[], count: number): Json {
  const sample = itemSamples[label(path)] ?? {};
  const items = Array.from({ length: count }, (_, i) =>
    Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, typeof v === "string" ? `${v}_${i}` : v])),
  );
  place(body, path, items);
  return body;
}

/** The members of each bracket expression of a pattern, by the edges of each range (a-z gives a and z). */
export function classMembers(pattern: string): string[][] {
  return [...pattern.matchAll(/\[([^\]]+)\]/g)].map(([, inner]) =>
    [...inner!.matchAll(/(.)-(.)|(.)/g)].flatMap(([, lo, hi, single]) => (single ? [single] : [lo!, hi!])),
  );
}

/** Names from every character class the name pattern allows: each edge of the first class leading, every member of the next one inside. */
function patternCases(ctx: CheckContext, pattern: string, max: number): string[] {
  const [first = [], rest = []] = classMembers(pattern);
  const names = first.map((c) => `${c}${ctx.name(`${outOfProfile}pat`)}`);
  names.push(`${ctx.name(`${outOfProfile}pat`)}-${rest.join("")}`);
  const re = new RegExp(pattern);
  return names.map((n) => {
    // a derivation the pattern refuses is a bug of this check, not of the target
    if (!re.test(n) || n.length > max) throw new Error(`derived name ${n} breaks ${pattern}`);
    return n;
  });
}

/** The per-source table's rows of a rule for a source, as field paths. */
const rowsOf = (source: Source, rule: "O" | "F") =>
  Object.entries(perSourceRules)
    .filter(([, rules]) => rules[source] === rule)
    .map(([key]) => key.split("."));

/** The sources of the hosting kind this run can build a body for (codehost needs --integration-id). */
const buildable = (ctx: CheckContext) =>
  sourcesFor[ctx.config.hosting].filter((s) => s !== "codehost" || ctx.config.integrationId);

export const deploymentBoundChecks: Check[] = [
  {
    id: "BOUND-006",
    level: "SHOULD",
    tags: [...tags, "lengths"],
    statement:
      "Each string field of the deployment create body at its maxLength is accepted and comes back unchanged (for a source that takes it)",
    specRef: "D-31 (field length bounds), D-48 (which source takes the field)",
    needs: ["write", "state"],
    async run(ctx) {
      for (const f of lengthFields) {
        const source = sourceWhereNot(ctx, f.path, "F");
        if (!source || pinnedByRepository.has(ruleKey(f.path))) {
          const why = pinnedByRepository.has(ruleKey(f.path))
            ? "pinned to a repository record (D-49)"
            : "no source of this hosting kind takes it (D-48)";
          ctx.note(`${label(f.path)}: ${why}`);
          continue;
        }
        const body = await bodyOf(ctx, source);
        place(body, f.path, grow(baseString(body, f.path), f.max));
        const what = `create ${source} with ${label(f.path)} of ${f.max}`;
        const ex = await tryCreate(ctx, body);
        expect2xx(ex, what);
        expectEchoed(ex, ex.json as Json, body, f.path, what);
      }
    },
  },
  {
    id: "BOUND-007",
    level: "SHOULD",
    tags: [...tags, "lengths", "validation"],
    statement:
      "Each string field of the deployment create body one character beyond its maxLength is refused with a 422 naming the field",
    specRef: "D-31 (beyond a bound: 422), D-16 (errors[].pointer), D-47 (schema errors first)",
    needs: ["server"],
    async run(ctx) {
      for (const f of lengthFields) {
        const source = sourceWhereNot(ctx, f.path, "F") ?? plainSource(ctx.config.hosting);
        const body = await bodyOf(ctx, source);
        place(body, f.path, grow(baseString(body, f.path), f.max + 1));
        const ex = await tryCreate(ctx, body);
        expect422Naming(ex, `create ${source} with ${label(f.path)} of ${f.max + 1}`, { pointer: pointer(f.path) });
      }
    },
  },
  {
    id: "BOUND-008",
    level: "SHOULD",
    tags: [...tags, "counts"],
    statement:
      "Each array of the deployment create body at its maxItems (distinct items) is accepted and comes back with every item",
    specRef: "D-32 (counts), D-55, D-56 (returned as sent)",
    needs: ["write", "state"],
    async run(ctx) {
      for (const f of countFields) {
        const source = sourceWhereNot(ctx, f.path, "F");
        if (!source) {
          ctx.note(`${label(f.path)}: no source of this hosting kind takes it (D-48)`);
          continue;
        }
        const body = withItems(await bodyOf(ctx, source), f.path, f.max);
        const what = `create ${source} with ${f.max} ${label(f.path)}`;
        const ex = await tryCreate(ctx, body);
        expect2xx(ex, what);
        const got = valueAt(ex.json, f.path);
        ensure(
          Array.isArray(got) && got.length === f.max,
          `${what}: ${label(f.path)} came back with ${Array.isArray(got) ? got.length : "no"} items`,
          ex,
        );
        for (const key of Object.keys(itemSamples[label(f.path)] ?? {}))
          for (let i = 0; i < f.max; i++) expectEchoed(ex, ex.json as Json, body, [...f.path, String(i), key], what);
      }
    },
  },
  {
    id: "BOUND-009",
    level: "SHOULD",
    tags: [...tags, "counts", "validation"],
    statement:
      "Each array of the deployment create body one item beyond its maxItems is refused with a 422 naming the array",
    specRef: "D-32 (beyond: 422), D-16 (errors[].pointer), D-47 (schema errors first)",
    needs: ["server"],
    async run(ctx) {
      for (const f of countFields) {
        const source = sourceWhereNot(ctx, f.path, "F") ?? plainSource(ctx.config.hosting);
        const ex = await tryCreate(ctx, withItems(await bodyOf(ctx, source), f.path, f.max + 1));
        expect422Naming(ex, `create ${source} with ${f.max + 1} ${label(f.path)}`, { pointer: pointer(f.path) });
      }
    },
  },
  {
    id: "BOUND-010",
    level: "SHOULD",
    tags: ["listDeployments", "bounds", "counts", "lengths"],
    statement:
      "Each list query parameter at its bound (maxLength characters, maxItems values) is accepted; status with every value and deployment_ids holding a deployment's id among 100 return it",
    specRef: "D-31, D-32 (query bounds), D-44, D-45 (deployment_ids and status match any of their values)",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "bndq" });
      const id = String(record.id);
      for (const p of listParameters) {
        const { maxLength, maxItems, items } = p.schema;
        if (maxLength !== undefined) await listDeployments(ctx, { [p.name]: "x".repeat(maxLength) });
        if (maxItems === undefined) continue;
        const values = valuesOf(items as SchemaObject, maxItems, id);
        const query =
          p.name === "deployment_ids"
            ? { deployment_ids: values.join(",") }
            : { [p.name]: values.join(","), deployment_ids: id };
        const { exchange, resources } = await listDeployments(ctx, query);
        // every status is among the values, and the id is among the ids: the deployment matches (tags match nothing, D-41)
        if (p.name !== "tag_value_ids")
          ensure(
            resources.some((r) => r.id === id),
            `list with ${maxItems} ${p.name} values: deployment ${id} is not returned`,
            exchange,
          );
      }
    },
  },
  {
    id: "BOUND-011",
    level: "SHOULD",
    tags: ["listDeployments", "bounds", "counts", "lengths", "validation"],
    statement: "Each list query parameter one beyond its bound is refused with a 422 naming the parameter",
    specRef: "D-31, D-32 (beyond: 422), D-16 (errors[].parameter)",
    needs: ["server"],
    async run(ctx) {
      for (const p of listParameters) {
        const { maxLength, maxItems, items } = p.schema;
        const over =
          maxLength !== undefined
            ? "x".repeat(maxLength + 1)
            : maxItems !== undefined
              ? valuesOf(items as SchemaObject, maxItems + 1, crypto.randomUUID()).join(",")
              : undefined;
        if (over === undefined) continue;
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query: { [p.name]: over },
          operation: "listDeployments",
        });
        expect422Naming(ex, `list with ${p.name} one beyond its bound`, { parameter: p.name });
      }
    },
  },
  {
    id: "BOUND-012",
    level: "MUST",
    tags: [...tags, "nullable"],
    statement:
      "Each nullable field of the deployment create body sent as explicit null is accepted wherever the same body without it is",
    specRef:
      'interface-spec: Deployment record ("All fields of SourceConfig and SourceRevisionConfig are nullable"); 6. Create a deployment, secret_references "SecretReference[] or null"',
    needs: ["write"],
    async run(ctx) {
      for (const f of nullableFields) {
        const source = sourceWhereNot(ctx, f.path, "R");
        if (!source) continue;
        const control = await tryCreate(ctx, await bodyOf(ctx, source));
        // the base body follows the per-source table (D-48), a decision: its refusal is no MUST verdict
        if (control.response.status >= 300) {
          ctx.note(
            `${label(f.path)}: the ${source} body without it is refused (${control.response.status}); not judged`,
          );
          continue;
        }
        const body = await bodyOf(ctx, source);
        place(body, f.path, null);
        expect2xx(await tryCreate(ctx, body), `create ${source} with ${label(f.path)} null (accepted without it)`);
      }
    },
  },
  {
    id: "BOUND-013",
    level: "SHOULD",
    tags: [...tags, "nullable"],
    statement:
      "Each nullable field of the deployment create body sent as explicit null is accepted and comes back null or absent",
    specRef: "D-68 (absent and null mean the same), D-48 (a forbidden field may be null), D-36, D-56",
    needs: ["write", "state"],
    async run(ctx) {
      for (const f of nullableFields) {
        const source = sourceWhereNot(ctx, f.path, "R");
        if (!source) {
          ctx.note(`${label(f.path)}: required for every source of this hosting kind (D-48)`);
          continue;
        }
        const body = await bodyOf(ctx, source);
        place(body, f.path, null);
        const what = `create ${source} with ${label(f.path)} null`;
        const ex = await tryCreate(ctx, body);
        expect2xx(ex, what);
        const got = valueAt(ex.json, f.path);
        ensure(got === null || got === undefined, `${what}: it came back as ${JSON.stringify(got)?.slice(0, 80)}`, ex);
      }
    },
  },
  {
    id: "BOUND-014",
    level: "SHOULD",
    tags: [...tags, "pattern"],
    statement:
      "Deployment and secret names from every character class their patterns allow (each edge of each range, each single character) are accepted and come back unchanged",
    specRef: "D-37 (deployment name pattern ^[a-zA-Z][a-zA-Z0-9-]*$), D-116 (secret names)",
    needs: ["write", "state"],
    async run(ctx) {
      for (const f of patternFields) {
        for (const value of patternCases(ctx, f.pattern, f.max)) {
          const body = await bodyOf(ctx, plainSource(ctx.config.hosting));
          place(body, f.path, value);
          const what = `create with ${label(f.path)} ${value}`;
          const ex = await tryCreate(ctx, body);
          expect2xx(ex, what);
          expectEchoed(ex, ex.json as Json, body, f.path, what);
        }
      }
    },
  },
  {
    id: "BOUND-015",
    level: "SHOULD",
    tags: ["listDeployments", "createDeployment", "bounds", "spelling"],
    statement:
      "A uuid spelled in upper case names the same id: in deployment_ids and X-Tenant-Id the deployment is returned, as integration_id a codehost create is accepted",
    specRef: "D-190 (uuids in either letter case), D-44, D-64",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "bndu" });
      const id = String(record.id);
      const tenant = String(record.tenant_id).toUpperCase();
      for (const [what, query, tenantHeader] of [
        [`deployment_ids=${id.toUpperCase()}`, { deployment_ids: id.toUpperCase() }, undefined],
        [`X-Tenant-Id ${tenant}`, { deployment_ids: id }, tenant],
      ] as const) {
        const ex = await ctx.send({
          method: "GET",
          path: paths.deployments,
          query,
          tenant: tenantHeader,
          operation: "listDeployments",
        });
        expect2xx(ex, `list with ${what}`);
        const resources = isObject(ex.json) && Array.isArray(ex.json.resources) ? (ex.json.resources as Json[]) : [];
        ensure(
          resources.some((r) => String(r.id).toLowerCase() === id.toLowerCase()),
          `list with ${what} does not return deployment ${id}`,
          ex,
        );
      }
      if (ctx.config.hosting !== "cloud" || !ctx.config.integrationId) return;
      const body = await bodyOf(ctx, "codehost", "bndu");
      place(
        body,
        ["source_config", "integration_id"],
        String(valueAt(body, ["source_config", "integration_id"])).toUpperCase(),
      );
      expect2xx(await tryCreate(ctx, body), "create codehost with integration_id in upper case");
    },
  },
  {
    id: "BOUND-016",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement:
      'A field forbidden for the source sent as a blank string ("") is refused with 400 naming it, for every available source',
    specRef: 'D-48 (forbidden: absent or null; any other value, even "", is 400), D-47',
    needs: ["write", "server"],
    async run(ctx) {
      for (const source of buildable(ctx))
        for (const path of rowsOf(source, "F")) {
          // a blank uuid breaks the schema first (422, D-47): only plain strings reach the per-source rule
          const field = fields.find((f) => label(f.path) === label(path));
          if (typeof ruleSample(path.join(".")) !== "string" || (field && branchOf(field, "string")?.format)) continue;
          const body = await bodyOf(ctx, source, "rule");
          place(body, path, "");
          const ex = await tryCreate(ctx, body);
          const what = `create ${source} with ${label(path)} ""`;
          expectStatus(ex, 400, what);
          ensure(ex.response.body.includes(path.at(-1)!), `${what}: the problem does not name ${path.at(-1)}`, ex);
        }
    },
  },
  {
    id: "BOUND-017",
    level: "SHOULD",
    tags: [...tags, "source-rules"],
    statement:
      "A field optional for the source (each boolean both true and false) is accepted and comes back as sent, for every available source",
    specRef: "D-48 (optional fields per source), D-36, D-51 (build_on_push with a branch), D-56",
    needs: ["write", "state"],
    async run(ctx) {
      for (const source of buildable(ctx))
        for (const path of rowsOf(source, "O")) {
          const sample = ruleSample(path.join("."));
          for (const value of typeof sample === "boolean" ? [true, false] : [sample]) {
            const body = await bodyOf(ctx, source, "opt");
            place(body, path, value);
            const what = `create ${source} with ${label(path)} ${JSON.stringify(value)}`;
            const ex = await tryCreate(ctx, body);
            expect2xx(ex, what);
            expectEchoed(ex, ex.json as Json, body, path, what);
          }
        }
    },
  },
  {
    id: "BOUND-028",
    level: "MUST",
    tags: [...tags, "source-rules"],
    statement:
      'A string field optional for the source sent as "" comes back as "", and a boolean one sent as false comes back false: never null or left out, for every available source (a refusal is no verdict)',
    specRef:
      'interface-spec: SourceConfig and SourceRevisionConfig (string and boolean fields; "" is a string, false a boolean); 6. Create deployment (the response is the deployment record)',
    needs: ["write", "state"],
    async run(ctx) {
      // each field at its zero: a store that writes a falsy value as null or leaves it out loses it
      const zeroOf = (path: string[]) => {
        const sample = ruleSample(path.join("."));
        return typeof sample === "string" ? "" : typeof sample === "boolean" ? false : undefined;
      };
      const items = buildable(ctx).flatMap((source) =>
        rowsOf(source, "O")
          .filter((path) => zeroOf(path) !== undefined)
          .map((path) => ({ source, path, zero: zeroOf(path) })),
      );
      await judgeEach(ctx, items, async ({ source, path, zero }) => {
        const body = await bodyOf(ctx, source, "empty");
        place(body, path, zero);
        const what = `create ${source} with ${label(path)} ${JSON.stringify(zero)}`;
        const ex = await tryCreate(ctx, body);
        // which fields a source takes, and whether a blank one is refused, is D-48's, not the interface spec's
        if (isRefusal(ex)) ctx.skip(`${noVerdictPrefix}: the target refused ${what} (${ex.response.status})`);
        expect2xx(ex, what);
        expectEchoed(ex, ex.json as Json, body, path, what);
        const { exchange: listed, resources } = await listDeployments(ctx, {
          deployment_ids: String((ex.json as Json).id),
        });
        ensure(resources[0] !== undefined, `${what}: the deployment is not listed by its id`, listed);
        expectEchoed(listed, resources[0] as Json, body, path, `${what}, listed`);
      });
    },
  },
  {
    id: "BOUND-018",
    level: "SHOULD",
    tags: [...tags, "source-rules", "spelling", "rule-4"],
    statement:
      "A codehost repo_url spelled another way for the same repository (host in upper case, a trailing slash, a .git suffix) is accepted and comes back as sent",
    specRef: "D-192 (repo_url compared by scheme, host in any case and path), D-49",
    needs: ["write", "state", "integration", "cloud"],
    async run(ctx) {
      const repository = await firstRepository(ctx);
      const url = new URL(repository.url);
      const path = url.pathname.replace(/\/+$/, "");
      for (const spelling of [
        `${url.protocol}//${url.host.toUpperCase()}${path}`,
        `${url.protocol}//${url.host}${path}/`,
        `${url.protocol}//${url.host}${path}.git`,
      ]) {
        const { ex, body, what } = await createWithRepoUrl(ctx, repository, spelling);
        expect2xx(ex, what);
        expectEchoed(ex, ex.json as Json, body, ["source_config", "repo_url"], what);
      }
    },
  },
  {
    id: "BOUND-019",
    level: "SHOULD",
    tags: [...tags, "pattern", "secrets"],
    statement:
      "A secret name outside D-116 (a leading digit, dot or dash, a path, a space, text after a slash) and a secret name given twice are each refused with a 422 naming /secrets/<i>/name with a detail sentence",
    specRef: "D-116 (secret names: like an environment variable name, no name twice in one deployment)",
    needs: ["write"],
    async run(ctx) {
      const refused = ["1SECRET", ".", "../etc", "-SECRET", "SECRET/x", "SECRET NAME"];
      for (const name of refused) {
        if (new RegExp(secretNamePattern).test(name)) throw new Error(`${name} matches ${secretNamePattern}`);
        const body = await bodyOf(ctx, plainSource(ctx.config.hosting));
        place(
          body,
          ["secrets"],
          [
            { name: "CF_FIRST", value: "v" },
            { name, value: "v" },
          ],
        );
        expectSecretRefused(await tryCreate(ctx, body), `create with secret name ${JSON.stringify(name)}`);
      }
      const body = await bodyOf(ctx, plainSource(ctx.config.hosting));
      place(
        body,
        ["secrets"],
        [
          { name: "CF_TWICE", value: "a" },
          { name: "CF_TWICE", value: "b" },
        ],
      );
      expectSecretRefused(await tryCreate(ctx, body), "create with the secret name CF_TWICE twice");
    },
  },
  {
    id: "BOUND-020",
    level: "SHOULD",
    tags: [...tags, "text", "listDeployments"],
    statement:
      "A NUL (U+0000) or a lone surrogate in a string of a create body is refused with a 422 naming its pointer, and a NUL in a query parameter with a 422 naming the parameter",
    specRef: "D-111 (NUL and invalid Unicode in text: 422 naming the field or the parameter)",
    needs: ["server"],
    async run(ctx) {
      const nul = await bodyOf(ctx, plainSource(ctx.config.hosting), `${outOfProfile}nul`);
      place(nul, ["secrets"], [{ name: "CF_NUL", value: "a\u0000b" }]);
      expect422Naming(await tryCreate(ctx, nul), "create with a NUL in a secret value", {
        pointer: "/secrets/0/value",
      });
      // a lone surrogate has no UTF-8 form: it is written as the JSON escape \ud800
      const lone = await bodyOf(ctx, plainSource(ctx.config.hosting), `${outOfProfile}sur`);
      place(
        lone,
        ["secrets"],
        [
          { name: "CF_FINE", value: "fine" },
          { name: "CF_LONE", value: "CF_LONE_SURROGATE" },
        ],
      );
      const ex = await ctx.send({
        method: "POST",
        path: paths.deployments,
        raw: JSON.stringify(lone).replace("CF_LONE_SURROGATE", "x\\ud800"),
        headers: { "Content-Type": "application/json" },
      });
      if (ex.response.status < 300 && isObject(ex.json) && typeof ex.json.id === "string")
        ctx.created({ kind: "deployment", id: ex.json.id, name: String(lone.name), key: "main" });
      expect422Naming(ex, "create with a lone surrogate in a secret value", { pointer: "/secrets/1/value" });
      const query = await ctx.send({ method: "GET", path: paths.deployments, query: "name_contains=a%00b" });
      expect422Naming(query, "list with a NUL in name_contains", { parameter: "name_contains" });
    },
  },
  {
    id: "BOUND-021",
    level: "SHOULD",
    tags: [...tags, "listDeployments"],
    statement:
      "A list query giving a single-valued parameter twice (limit, name_contains) is refused with a 422 naming it; a list parameter given twice joins its values",
    specRef: "D-441 (a query parameter given twice), D-64",
    needs: ["server"],
    async run(ctx) {
      for (const [query, parameter] of [
        ["limit=5&limit=6", "limit"],
        ["name_contains=a&name_contains=b", "name_contains"],
      ] as const)
        expect422Naming(await ctx.send({ method: "GET", path: paths.deployments, query }), `list with ${query}`, {
          parameter,
        });
      const joined = await ctx.send({
        method: "GET",
        path: paths.deployments,
        query: "status=READY&status=AWAITING_DATABASE",
      });
      expect2xx(joined, "list with status=READY&status=AWAITING_DATABASE");
    },
  },
  {
    id: "BOUND-027",
    level: "SHOULD",
    tags: [...tags, "listDeployments", "repeats"],
    statement:
      "A list parameter given three times joins all three values: deployment_ids naming one deployment among two unknown ids, first, second or last, lists exactly it; three unknown ids list nothing",
    specRef: "D-441 (a list parameter given more than once joins the values of each), D-64",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await createDeployment(ctx, { label: "thrice" });
      const id = String(record.id);
      const unknown = () => crypto.randomUUID();
      for (const ids of [
        [id, unknown(), unknown()],
        [unknown(), id, unknown()],
        [unknown(), unknown(), id],
        [unknown(), unknown(), unknown()],
      ]) {
        const query = ids.map((given) => `deployment_ids=${given}`).join("&");
        const ex = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
        expect2xx(ex, `list with ${query}`);
        const listed = isObject(ex.json) && Array.isArray(ex.json.resources) ? ex.json.resources : [];
        const got = listed.map((r) => (isObject(r) ? String(r.id) : "?"));
        const want = ids.includes(id) ? [id] : [];
        ensure(
          got.length === want.length && got.every((g, i) => g === want[i]),
          `list with ${query} listed [${got.join(", ")}], not [${want.join(", ")}]`,
          ex,
        );
      }
    },
  },
  {
    id: "BOUND-025",
    level: "SHOULD",
    tags: [...tags, "source-rules", "spelling", "rule-4"],
    statement:
      "A codehost repo_url with several trailing slashes, or with a .git suffix and a trailing slash, is accepted and comes back as sent; one with .git inside its path (not as the suffix) names no repository of the integration and is refused with 400 naming it",
    specRef: "D-192 and D-450 (trailing slashes and the .git suffix of the last segment left out), D-49",
    needs: ["write", "state", "integration", "cloud"],
    async run(ctx) {
      const repository = await firstRepository(ctx);
      const url = new URL(repository.url);
      const path = url.pathname.replace(/\/+$/, "");
      const cut = path.lastIndexOf("/");
      if (cut <= 0) ctx.skip(`the repository url ${repository.url} has one path segment: no .git can stand inside it`);
      for (const spelling of [`${url.protocol}//${url.host}${path}//`, `${url.protocol}//${url.host}${path}.git/`]) {
        const { ex, body, what } = await createWithRepoUrl(ctx, repository, spelling);
        expect2xx(ex, what);
        expectEchoed(ex, ex.json as Json, body, ["source_config", "repo_url"], what);
      }
      const inside = `${url.protocol}//${url.host}${path.slice(0, cut)}.git${path.slice(cut)}`;
      const { ex, what } = await createWithRepoUrl(ctx, repository, inside);
      expectStatus(ex, 400, what);
      expectNamed(ex, "/source_config/repo_url", what);
    },
  },
  {
    id: "BOUND-026",
    level: "SHOULD",
    tags: [...tags, "stored-size"],
    statement:
      "source_config, source_revision_config and secret_references holding exactly 65,536 bytes of compact JSON together are accepted; one byte more is a 422 naming the largest of the three with a detail sentence (/source_config, or /secret_references when 100 long references make it the largest)",
    specRef: "D-282 (what one deployment may store: 65,536 bytes of the three members together)",
    needs: ["write"],
    async run(ctx) {
      // The padding goes where the source allows a free string: install_command (internal_source, cloud) or an
      // annotation of the resource spec (external_container, self-hosted).
      const cloud = ctx.config.hosting === "cloud";
      const source: Source = cloud ? "internal_source" : "external_container";
      const padAt = cloud
        ? ["source_config", "install_command"]
        : ["source_config", "resource_spec", "annotations", "pad"];
      for (const extra of [0, 1]) {
        const body = await bodyOf(ctx, source);
        place(body, padAt, "");
        const pad = maxStoredConfigBytes + extra - storedBytes(body);
        place(body, padAt, "x".repeat(pad));
        const bytes = storedBytes(body);
        if (bytes !== maxStoredConfigBytes + extra) throw new Error(`the body holds ${bytes} counted bytes`);
        const what = `create ${source} whose counted members hold ${bytes} bytes`;
        const ex = await tryCreate(ctx, body);
        if (extra === 0) expect2xx(ex, what);
        else {
          expect422Naming(ex, what, { pointer: "/source_config" });
          const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
          ensure(
            errors.some(
              (e) =>
                isObject(e) && e.pointer === "/source_config" && typeof e.detail === "string" && e.detail.trim() !== "",
            ),
            `${what}: the errors[] item naming /source_config has no detail sentence (D-16)`,
            ex,
          );
        }
      }
      const body = await bodyOf(ctx, plainSource(ctx.config.hosting));
      const long = (prefix: string, i: number) => `${prefix}${String(i).padStart(3, "0")}`.padEnd(255, "x");
      place(
        body,
        ["secret_references"],
        Array.from({ length: 100 }, (_, i) => ({
          name: long("REF_", i),
          secret_name: long("secret-", i),
          secret_key: long("key-", i),
        })),
      );
      const what = `create with 100 secret references of ${storedBytes(body)} counted bytes in all`;
      expect422Naming(await tryCreate(ctx, body), what, { pointer: "/secret_references" });
    },
  },
];

/** A codehost create from the repository record with its repo_url spelled another way (D-192). */
async function createWithRepoUrl(ctx: CheckContext, repository: RepositoryRecord, spelling: string) {
  const body = deploymentBody(ctx.name(`${outOfProfile}url`), "codehost", repository);
  place(body, ["source_config", "repo_url"], spelling);
  const what = `create codehost with repo_url ${spelling} (the repository's url is ${repository.url})`;
  return { ex: await tryCreate(ctx, body), body, what };
}

/** Fails unless the refusal names the body field in errors[].pointer. */
function expectNamed(ex: Exchange, pointer: string, what: string): void {
  const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
  ensure(
    errors.some((e) => isObject(e) && e.pointer === pointer),
    `${what}: the refusal does not name ${pointer} in errors[].pointer`,
    ex,
  );
}

/** `count` values of a list parameter's items: the enum's values in turn, or uuids with `id` first. */
function valuesOf(items: SchemaObject, count: number, id: string): string[] {
  const values = (items.enum ?? []) as string[];
  if (values.length > 0) return Array.from({ length: count }, (_, i) => values[i % values.length]!);
  return [id, ...Array.from({ length: count - 1 }, () => crypto.randomUUID())];
}
