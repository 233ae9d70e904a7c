/** A list page of deployments at the contract's largest (D-31, D-32): exactly the records created, masked, in order (D-350 sends such a page in parts). */
import { operation, type SchemaObject } from "../../contract/index.js";
import { ensure } from "../check-kit/assert.js";
import {
  createDeployment,
  differences,
  instant,
  type Json,
  listDeployments,
  paths,
  walkDeployments,
} from "../check-kit/helpers.js";
import { deploymentBody, plainSource } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";

const secretsSchema = (operation("createDeployment").requestBody?.schema?.properties?.secrets ?? {}) as SchemaObject;
const secretNameSchema = (secretsSchema.items as SchemaObject | undefined)?.properties?.name as
  | SchemaObject
  | undefined;
/** The most secrets a deployment takes and the longest name each may have, as the contract bounds them (D-31, D-32). */
const maxSecrets = secretsSchema.maxItems ?? 100;
const maxSecretName = secretNameSchema?.maxLength ?? 255;

/** Deployments created: each answer is over 16 KiB, so their page is well past the size a target might send whole. */
const heavyCount = 10;

/** Fields provisioning may change between the create answer and a later list (D-11, D-12). */
const stateFields = new Set(["status", "active_revision_id", "updated_at"]);
const withoutState = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !stateFields.has(key)));

/** Secrets at their bounds: as many as allowed, each name as long as allowed; values are returned masked (D-55), so short. */
function heaviestSecrets(): Json[] {
  return Array.from({ length: maxSecrets }, (_, i) => {
    const head = `S${i}_`;
    return { name: head + "N".repeat(maxSecretName - head.length), value: `v${i}` };
  });
}

/** Newest first, id descending on a tie (D-08). */
function newestFirst(a: Json, b: Json): number {
  const ta = instant(a.created_at) ?? 0n;
  const tb = instant(b.created_at) ?? 0n;
  if (ta !== tb) return ta > tb ? -1 : 1;
  return String(a.id) > String(b.id) ? -1 : 1;
}

/** What differs between a listed page and the create answers it should hold, in order. */
function pageProblems(listed: Json[], created: Json[]): string[] {
  const got = listed.map((r) => String(r.id));
  const want = created.map((r) => String(r.id));
  if (got.join(",") !== want.join(",")) return [`ids [${got.join(", ")}], expected [${want.join(", ")}]`];
  return listed.flatMap((record, i) => {
    const expected = withoutState(created[i]!);
    const extra = Object.keys(withoutState(record)).filter((key) => !(key in expected));
    return [...differences(record, expected), ...extra.map((key) => `${key}: not in the create answer`)]
      .slice(0, 3)
      .map((problem) => `${String(record.id)} ${problem}`);
  });
}

async function heavyPageIsTheRecords(ctx: CheckContext): Promise<void> {
  const stem = `${ctx.prefix}heavy${Math.random().toString(36).slice(2, 6)}-`;
  const created: Json[] = [];
  for (let i = 0; i < heavyCount; i++) {
    const body = { ...deploymentBody(`${stem}${i}`, plainSource(ctx.config.hosting)), secrets: heaviestSecrets() };
    created.push((await createDeployment(ctx, { body })).record);
  }
  const want = [...created].sort(newestFirst);
  // more HEADs than a server sends heavy pages at a time (two, D-350): one that keeps a page's slot after a HEAD
  // makes the third wait, and the list after it
  for (let i = 1; i <= 3; i++) {
    const head = await ctx.send({
      method: "HEAD",
      path: paths.deployments,
      query: { name_contains: stem, limit: 100 },
    });
    ensure(
      head.response.status >= 200 && head.response.status < 300 && head.response.body === "",
      `HEAD ${i} of the page of name_contains=${stem} answered ${head.response.status} with ${head.response.body.length} characters of body, not a 2xx with none`,
      head,
    );
  }
  const whole = await listDeployments(ctx, { name_contains: stem, limit: 100 });
  const wrong = pageProblems(whole.resources, want);
  ensure(wrong.length === 0, `one page of name_contains=${stem}: ${wrong.slice(0, 3).join("; ")}`, whole.exchange);
  ensure(
    whole.offset === heavyCount,
    `one page of ${heavyCount} deployments answers offset ${JSON.stringify(whole.offset)}`,
    whole.exchange,
  );
  const walked = await walkDeployments(ctx, { name_contains: stem }, 4, 10);
  const paged = pageProblems(walked.records, want);
  ensure(
    paged.length === 0,
    `pages of 4 of name_contains=${stem}: ${paged.slice(0, 3).join("; ")}`,
    walked.exchanges.at(-1)!,
  );
}

export const heavyPageChecks: Check[] = [
  {
    id: "DEP-LIST-040",
    level: "SHOULD",
    tags: ["semantics", "listDeployments", "createDeployment", "pagination", "bounds"],
    statement: `A page of ${heavyCount} deployments each with ${maxSecrets} secrets named at ${maxSecretName} characters, after three HEADs of their page (each a 2xx with no body), in one page and in pages of 4, is valid JSON holding exactly their create answers (state fields aside; secret values masked), newest first, with the offset past them`,
    specRef:
      "D-31, D-32 (the bounds of secrets), D-350 (a heavy page; its slot freed after a HEAD), D-08 (newest first), D-55 (secret values masked), D-09",
    needs: ["write", "state"],
    run: heavyPageIsTheRecords,
  },
];
