/**
 * Text in every character class (PROP-007, PROP-008): every free string field of a create body, drawn from each class
 * of conformance/model/char-classes.ts and from the corpus values of conformance/model/corpus-values.ts (D-495), comes
 * back as sent in the create answer and in the lists that return it.
 */
import fc from "fast-check";
import { ensure, expect2xx, isObject, jsonArray, jsonObject } from "../check-kit/assert.js";
import { type Json, paths, sendProviderCreate } from "../check-kit/helpers.js";
import type { Hosting } from "../cli/run-config.js";
import type { CharacterClass } from "../coverage/axes.js";
import { compositeText } from "../model/char-classes.js";
import { boundValues, type CorpusValue, corpusValues, digitsValue, punctuatedValue } from "../model/corpus-values.js";
import { deploymentBody } from "../model/data.js";
import { naughtySample } from "../model/naughty-strings.js";
import type { Check, CheckContext } from "../runner/check.js";
import { isRefusal, noVerdictPrefix } from "../runner/no-verdict.js";
import type { Exchange } from "../target/http-exchange.js";
import { holdsFor, reached } from "./properties-run.js";

/** The free string fields of a provider body: no pattern, enum or format of the interface spec or the profile. */
const providerFields = ["name", "client_id", "provider_id"] as const;

/** A free string field of a deployment body: where it sits (array items by index), and its bound (D-31), if any. */
interface TextField {
  at: (string | number)[];
  bound?: number;
}

/** The body a hosting kind's text goes into, and its free string fields (D-48: the fields its source takes). */
const textBodies: Record<Hosting, { body: () => Json; fields: TextField[] }> = {
  cloud: {
    body: () => ({ source: "internal_source", secrets: [], source_config: {}, source_revision_config: {} }),
    fields: [
      { at: ["source_config", "install_command"] },
      { at: ["source_config", "build_command"] },
      { at: ["source_revision_config", "graph_config_path"], bound: 1024 },
      { at: ["source_revision_config", "source_tarball_path"], bound: 2048 },
    ],
  },
  // external_container: the listener's namespace, the resource spec's strings and a secret reference's
  self_hosted: {
    body: () => {
      const body = deploymentBody("", "external_container");
      body.source_config = {
        ...(body.source_config as Json),
        listener_config: {},
        resource_spec: { sidecars: [{ name: "side", image: "busybox:1.36", args: [], env: [{ name: "TXT" }] }] },
      };
      body.secret_references = [{ name: "TXT_REF", secret_key: "k" }];
      return body;
    },
    fields: [
      { at: ["source_config", "listener_config", "cluster_namespace"] },
      { at: ["source_config", "resource_spec", "service_account_name"] },
      { at: ["source_config", "resource_spec", "sidecars", 0, "args", 0] },
      { at: ["source_config", "resource_spec", "sidecars", 0, "env", 0, "value"] },
      { at: ["secret_references", 0, "secret_name"], bound: 255 },
    ],
  },
};

/** A field's place written as the coverage matrix names it (array indices left out). */
const fieldName = (field: TextField) => field.at.filter((step) => typeof step === "string").join(".");

/** The value at a place in a JSON value, or undefined when a step is missing. */
function valueAt(value: unknown, at: readonly (string | number)[]): unknown {
  return at.reduce<unknown>(
    (v, step) =>
      typeof step === "number" ? (Array.isArray(v) ? v[step] : undefined) : isObject(v) ? v[step] : undefined,
    value,
  );
}

/** Writes a value at a place whose containers the body already holds. */
function writeAt(body: Json, at: readonly (string | number)[], value: string | string[]): void {
  const parent = valueAt(body, at.slice(0, -1)) as Record<string | number, unknown>;
  parent[at[at.length - 1]!] = value;
}

type Drawn = { classes: CharacterClass[]; text: string };

/** One value per field, each of its own class. */
const providerTexts = fc.record({
  name: compositeText(255, 255),
  client_id: compositeText(255, 255),
  provider_id: compositeText(200),
});
/** The bounds of the deployment fields (D-31): the path fields have one, the commands none. */
const deploymentTexts = (hosting: Hosting) =>
  fc.tuple(...textBodies[hosting].fields.map((field) => compositeText(255, field.bound)));

/** The classes a field's value showed as sent: provider_id carries the run's prefix, so its length is not the text's. */
const shownClasses = (field: string, drawn: Drawn) =>
  field === "provider_id"
    ? drawn.classes.filter((k) => k !== "one-character" && k !== "two-characters")
    : drawn.classes;

/** The values of `record` that differ from what was sent, by field (a dotted place, array indices as numbers). */
function changed(record: unknown, sent: [string, string][]): string[] {
  const at = (path: string) =>
    valueAt(
      record,
      path.split(".").map((step) => (/^\d+$/.test(step) ? Number(step) : step)),
    );
  return sent
    .filter(([path, value]) => at(path) !== value)
    .map(([path, value]) => `${path}: sent ${JSON.stringify(value)}, got ${JSON.stringify(at(path))}`);
}

/** What one property run did: judged, or refused by the target (no verdict at MUST, a failure at SHOULD). */
interface Tally {
  judged: number;
  refused: number;
}

/** Fails at SHOULD, counts at MUST, a create refused with a 4xx. */
function refused(ctx: CheckContext, exchange: Exchange, tally: Tally, what: string): boolean {
  if (!isRefusal(exchange)) return false;
  ensure(
    ctx.level === "MUST",
    `${what} was refused with ${exchange.response.status}; no pattern or bound of the profile refuses it (D-31, D-111)`,
    exchange,
  );
  tally.refused += 1;
  return true;
}

/**
 * Creates a provider with generated text in every free field and reads it back from the create answer and the list.
 * One provider a run, shared by PROP-007 and PROP-008: one input holds every class at once, and every provider a run
 * creates counts against the organization's room on a target that bounds it (a run must stay small, D-245).
 */
async function providerText(ctx: CheckContext, tally: Tally, drawn: Record<string, Drawn>) {
  const { sent, created } = await ctx.fixture("prop-text-provider", async () => {
    const sent: [string, string][] = providerFields.map((f) => [f, drawn[f]!.text]);
    const body: Json = {
      ...Object.fromEntries(sent),
      provider_id: `${ctx.name("t")}-${drawn.provider_id!.text}`,
      auth_url: "https://auth.example.com/oauth/authorize",
      token_url: "https://auth.example.com/oauth/token",
    };
    sent[2] = ["provider_id", String(body.provider_id)];
    return { sent, created: await sendProviderCreate(ctx, body) };
  });
  if (refused(ctx, created, tally, "an OAuth provider body of these classes")) return;
  expect2xx(created, "create an OAuth provider with generated text");
  const answer = jsonObject(created, "create OAuth provider");
  tally.judged += 1;
  for (const f of providerFields) for (const k of shownClasses(f, drawn[f]!)) reached(ctx, "text", k, `provider.${f}`);
  const inAnswer = changed(answer, sent);
  ensure(inAnswer.length === 0, `the create answer changed the text sent: ${inAnswer.join("; ")}`, created);
  const listed = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
  expect2xx(listed, "list OAuth providers");
  const record = (jsonArray(listed, "list OAuth providers") as Json[]).find((p) => p.id === answer.id);
  ensure(record !== undefined, "the provider created with generated text is not listed", listed);
  const inList = changed(record, sent);
  ensure(inList.length === 0, `the list changed the text sent: ${inList.join("; ")}`, listed);
}

/** Creates a deployment with generated text in every free field of its hosting kind's body, then lists it by id and by name. */
async function deploymentText(ctx: CheckContext, tally: Tally, drawn: Drawn[]) {
  const { body: bodyOf, fields } = textBodies[ctx.config.hosting];
  const body: Json = { ...bodyOf(), name: ctx.name("txt") };
  const sent: [string, string][] = fields.map((field, i) => {
    writeAt(body, field.at, drawn[i]!.text);
    return [field.at.join("."), drawn[i]!.text];
  });
  const created = await ctx.send({
    method: "POST",
    path: paths.deployments,
    json: body,
    operation: "createDeployment",
  });
  if (refused(ctx, created, tally, `an ${String(body.source)} body of these classes`)) return;
  expect2xx(created, "create a deployment with generated text");
  const answer = jsonObject(created, "create deployment");
  ctx.created({ kind: "deployment", id: String(answer.id), name: String(body.name), key: "main" });
  tally.judged += 1;
  for (const [i, field] of fields.entries())
    for (const k of drawn[i]!.classes) reached(ctx, "text", k, fieldName(field));
  const inAnswer = changed(answer, sent);
  ensure(inAnswer.length === 0, `the create answer changed the text sent: ${inAnswer.join("; ")}`, created);
  for (const query of [{ deployment_ids: String(answer.id) }, { name_contains: String(body.name) }]) {
    const listed = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
    expect2xx(listed, `list deployments by ${Object.keys(query)[0]}`);
    const record = (jsonObject(listed, "list deployments").resources as Json[]).find((d) => d.id === answer.id);
    ensure(record !== undefined, `the deployment is not listed by ${Object.keys(query)[0]}`, listed);
    const inList = changed(record, sent);
    ensure(inList.length === 0, `the list changed the text sent: ${inList.join("; ")}`, listed);
  }
}

/** A provider of corpus values (D-495): digits alone, `.`, `:` and an inner space, a name of 4-byte characters at its bound. */
async function corpusProvider(ctx: CheckContext, tally: Tally) {
  const seed = ctx.config.seed;
  const { sent, created } = await ctx.fixture("prop-corpus-provider", async () => {
    const naughty = naughtySample(seed, false).find((t) => t.trim() !== "" && [...t].length <= 150) ?? "";
    const sent: [string, string][] = [
      ["name", boundValues(seed, 255)[3]!.text],
      ["client_id", digitsValue(seed)],
      ["provider_id", `${ctx.name("c")}.${punctuatedValue(seed)} ${naughty}`],
    ];
    const body: Json = {
      ...Object.fromEntries(sent),
      auth_url: "https://auth.example.com/oauth/authorize",
      token_url: "https://auth.example.com/oauth/token",
    };
    return { sent, created: await sendProviderCreate(ctx, body) };
  });
  const what =
    "an OAuth provider of corpus values (a name of 255 4-byte characters, a client_id of digits, a provider_id with . : and a space)";
  if (refused(ctx, created, tally, what)) return;
  expect2xx(created, "create an OAuth provider of corpus values");
  const answer = jsonObject(created, "create OAuth provider");
  tally.judged += 1;
  for (const [field, klass] of [
    ["name", "bound-4-byte"],
    ["client_id", "number-like"],
    ["provider_id", "inner-punctuation"],
    ["provider_id", "naughty-strings"],
  ] as const)
    reached(ctx, "text", klass, `provider.${field}`);
  const inAnswer = changed(answer, sent);
  ensure(inAnswer.length === 0, `the create answer changed the corpus values sent: ${inAnswer.join("; ")}`, created);
  const listed = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
  expect2xx(listed, "list OAuth providers");
  const record = (jsonArray(listed, "list OAuth providers") as Json[]).find((p) => p.id === answer.id);
  ensure(record !== undefined, "the provider created with corpus values is not listed", listed);
  const inList = changed(record, sent);
  ensure(inList.length === 0, `the list changed the corpus values sent: ${inList.join("; ")}`, listed);
}

/** One deployment body of corpus values and the values it carries: where each sits, its class, its text. */
interface CorpusBody {
  body: Json;
  values: { at: (string | number)[]; value: CorpusValue }[];
}

/**
 * The deployment bodies of a run's corpus values (D-495). Self-hosted: one body, every value an item of a sidecar's
 * `args` and each bound class a `secret_name` (255). Cloud: two values a body in the commands, the paths (1,024 and
 * 2,048) at their bound in each byte class.
 */
function corpusBodies(ctx: CheckContext): CorpusBody[] {
  const { seed, hosting } = ctx.config;
  const free = corpusValues(seed, ctx.config.allJsonCases, true);
  if (hosting === "self_hosted") {
    const body = textBodies.self_hosted.body();
    const bound = boundValues(seed, 255);
    const args = ["source_config", "resource_spec", "sidecars", 0, "args"];
    writeAt(
      body,
      args,
      free.map((v) => v.text),
    );
    body.secret_references = bound.map((v, i) => ({ name: `CORPUS_${i}`, secret_name: v.text, secret_key: "k" }));
    return [
      {
        body,
        values: [
          ...free.map((value, i) => ({ at: [...args, i], value })),
          ...bound.map((value, i) => ({ at: ["secret_references", i, "secret_name"], value })),
        ],
      },
    ];
  }
  const graph = boundValues(seed, 1024);
  const tarball = boundValues(seed + 1, 2048);
  const count = Math.max(graph.length, Math.ceil(free.length / 2));
  return Array.from({ length: count }, (_, j) => {
    const placed: [(string | number)[], CorpusValue | undefined][] = [
      [["source_config", "install_command"], free[2 * j]],
      [["source_config", "build_command"], free[2 * j + 1]],
      [["source_revision_config", "graph_config_path"], graph[j % graph.length]],
      [["source_revision_config", "source_tarball_path"], tarball[(j + 1) % tarball.length]],
    ];
    const body = textBodies.cloud.body();
    writeAt(body, ["source_revision_config", "graph_config_path"], "graph.json");
    const values = placed.flatMap(([at, value]) => (value === undefined ? [] : [{ at, value }]));
    for (const { at, value } of values) writeAt(body, at, value.text);
    return { body, values };
  });
}

/**
 * Creates the deployments of the run's corpus values once (shared by PROP-007 and PROP-008), then reads each value
 * back from its create answer and from a list by id.
 */
async function corpusDeployments(ctx: CheckContext, tally: Tally) {
  const made = await ctx.fixture("prop-corpus-deployments", async () => {
    const out: { sent: CorpusBody; created: Exchange }[] = [];
    for (const [i, sent] of corpusBodies(ctx).entries()) {
      sent.body.name = ctx.name(`crp${i}`);
      const created = await ctx.send({
        method: "POST",
        path: paths.deployments,
        json: sent.body,
        operation: "createDeployment",
      });
      if (created.response.status < 300 && isObject(created.json))
        ctx.created({ kind: "deployment", id: String(created.json.id), name: String(sent.body.name), key: "main" });
      out.push({ sent, created });
    }
    return out;
  });
  const judged: { id: string; sent: [string, string][] }[] = [];
  for (const { sent, created } of made) {
    const classes = [...new Set(sent.values.map((v) => v.value.klass))].join(", ");
    if (refused(ctx, created, tally, `an ${String(sent.body.source)} body of corpus values (${classes})`)) continue;
    expect2xx(created, `create a deployment of corpus values (${classes})`);
    const answer = jsonObject(created, "create deployment");
    tally.judged += 1;
    for (const { at, value } of sent.values) reached(ctx, "text", value.klass, fieldName({ at }));
    const pairs: [string, string][] = sent.values.map(({ at, value }) => [at.join("."), value.text]);
    const inAnswer = changed(answer, pairs);
    ensure(inAnswer.length === 0, `the create answer changed the corpus values sent: ${inAnswer.join("; ")}`, created);
    judged.push({ id: String(answer.id), sent: pairs });
  }
  for (let start = 0; start < judged.length; start += 100) {
    const chunk = judged.slice(start, start + 100);
    const query = { deployment_ids: chunk.map((d) => d.id).join(","), limit: 100 };
    const listed = await ctx.send({ method: "GET", path: paths.deployments, query, operation: "listDeployments" });
    expect2xx(listed, "list the deployments of corpus values by deployment_ids");
    const records = jsonObject(listed, "list deployments").resources as Json[];
    for (const { id, sent } of chunk) {
      const record = records.find((d) => d.id === id);
      ensure(record !== undefined, `the deployment ${id} of corpus values is not listed by deployment_ids`, listed);
      const inList = changed(record, sent);
      ensure(inList.length === 0, `the list changed the corpus values sent: ${inList.join("; ")}`, listed);
    }
  }
}

/** Both records with generated text per run; at MUST a refused body is no verdict (the profile may bound a field). */
async function textHolds(ctx: CheckContext): Promise<void> {
  const tally: Tally = { judged: 0, refused: 0 };
  let providerJudged = false;
  const texts = fc.record({ provider: providerTexts, deployment: deploymentTexts(ctx.config.hosting) });
  await holdsFor(ctx, texts, async (drawn) => {
    if (!providerJudged) {
      providerJudged = true;
      await providerText(ctx, tally, drawn.provider);
    }
    await deploymentText(ctx, tally, drawn.deployment);
  });
  await corpusProvider(ctx, tally);
  await corpusDeployments(ctx, tally);
  if (tally.refused > 0)
    ctx.note(`${tally.refused} generated bodies refused with a 4xx (judged by PROP-008 at SHOULD)`);
  if (tally.judged === 0) ctx.skip(`${noVerdictPrefix}: every generated body was refused; PROP-008 judges it`);
}

const tags = ["properties", "generated", "text", "createOAuthProvider", "createDeployment", "listDeployments"];

export const textPropertyChecks: Check[] = [
  {
    id: "PROP-007",
    level: "MUST",
    tags,
    statement:
      "Text of every character class (Latin-1, CJK, astral and emoji, combining marks, RTL, zero-width, quotes, backslashes, query specials, edge whitespace, long) and every corpus value (a sample of the Big List of Naughty Strings, number-like text, inner spaces and punctuation, one and two characters, the empty string, each Unicode normalization form, a bound in 1- to 4-byte characters) in every free string field and string array item comes back exactly as sent, in the create answer and in every list that returns the record",
    specRef:
      "interface-spec: Resources (provider name, client_id, provider_id; SourceConfig, SourceRevisionConfig, Container args: string); D-495",
    needs: ["write", "state"],
    run: textHolds,
  },
  {
    id: "PROP-008",
    level: "SHOULD",
    tags,
    statement:
      "A free string field of any character class or corpus value within its bound is accepted (no pattern of the profile refuses it; a bound counts code points)",
    specRef: "D-31 (bounds), D-111 (only NUL and lone surrogates refused), D-250, D-495",
    needs: ["write", "state"],
    run: textHolds,
  },
];
