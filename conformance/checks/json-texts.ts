/**
 * Checks of how a target reads JSON (D-486): the texts of the JSONTestSuite corpus sent as OAuth provider create
 * bodies (a must-reject text refused, a must-accept one parsed, an implementation-defined one never a 5xx), and
 * member names matched as written, never ignoring letter case.
 */
import { ensure, expect4xx } from "../check-kit/assert.js";
import { paths, tryCreate } from "../check-kit/helpers.js";
import { providerBody } from "../model/data.js";
import { corpusSample, type JsonCase, type JsonCaseKind } from "../model/json-corpus.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";
import { expectProblem, urn } from "./errors.js";

const tags = ["errors", "json", "createOAuthProvider"];

/** How a corpus text is shown in a failure: its name and, for a short one, the text itself. */
const shown = (c: JsonCase) => (c.text.length <= 40 ? `${c.name} (${JSON.stringify(c.text)})` : c.name);

/**
 * Sends each text of one class the run sends (a sample drawn from the seed, or all with --all-json-cases) and hands
 * each answer to `judge`. The answers are shared by the checks of the class, so each text is sent once a run.
 */
async function sendCorpus(
  ctx: CheckContext,
  kind: JsonCaseKind,
  judge: (exchange: Exchange, c: JsonCase) => void,
): Promise<void> {
  const cases = corpusSample(kind, ctx.config.seed, ctx.config.allJsonCases);
  const answers = await ctx.fixture(`json-corpus-${kind}`, async () => {
    const out: Exchange[] = [];
    for (const c of cases)
      out.push(
        await tryCreate(
          ctx,
          { path: paths.providers, raw: c.text, headers: { "Content-Type": "application/json" } },
          "oauth_provider",
        ),
      );
    return out;
  });
  ctx.note(`${cases.length} ${kind} texts of the JSONTestSuite corpus (seed ${ctx.config.seed})`);
  for (const [i, c] of cases.entries()) judge(answers[i]!, c);
}

/** The problem type of an answer, when it is a problem detail. */
const problemType = (ex: Exchange): unknown =>
  ex.json !== null && typeof ex.json === "object" && !Array.isArray(ex.json)
    ? (ex.json as Record<string, unknown>).type
    : undefined;

/** The provider create body with one member's name in other letters, so the member of that name is missing. */
function respelled(ctx: CheckContext, member: string, spelling: string): Record<string, unknown> {
  const { [member]: value, ...rest } = providerBody(ctx.name("case"));
  return { ...rest, [spelling]: value };
}

/**
 * A valid provider create body written with each leniency a parser may have (RFC 8259 §9 lets a parser take them; the
 * interface takes JSON alone): a body a lenient server reads as valid, so only the parse can refuse it.
 */
function lenientBodies(ctx: CheckContext): { label: string; text: string }[] {
  const text = JSON.stringify(providerBody(ctx.name("lenient")));
  const inner = text.slice(1, -1);
  return [
    { label: "a /* */ comment", text: `{/* a comment */${inner}}` },
    { label: "a // comment", text: `{// a comment\n${inner}}` },
    { label: "a trailing comma", text: `{${inner},}` },
    { label: "single quotes", text: text.replaceAll('"', "'") },
    { label: "unquoted member names", text: text.replace(/"([a-z_]+)":/g, "$1:") },
  ];
}

export const jsonTextChecks: Check[] = [
  {
    id: "ERR-017",
    level: "MUST",
    tags,
    statement:
      "Every must-reject text of the JSONTestSuite corpus the run sends (comments, trailing commas, single quotes, unquoted names, a lone byte order mark, and a sample drawn from the seed) as an OAuth provider create body is refused with a 4xx, never taken (2xx) or a 5xx",
    specRef: "interface-spec: Bodies are JSON (a text outside the grammar of RFC 8259 is no JSON body); D-17, D-486",
    needs: [],
    async run(ctx) {
      await sendCorpus(ctx, "reject", (ex, c) => expect4xx(ex, `a create whose body is ${shown(c)}`));
    },
  },
  {
    id: "ERR-018",
    level: "SHOULD",
    tags,
    statement:
      "Each must-reject text of the JSONTestSuite corpus the run sends as a create body is answered 400, a malformed-json problem",
    specRef: "D-17 (400 malformed-json), D-486",
    needs: ["server"],
    async run(ctx) {
      await sendCorpus(ctx, "reject", (ex, c) => {
        const what = `a create whose body is ${shown(c)}`;
        ensure(ex.response.status === 400, `${what}: expected 400, got ${ex.response.status}`, ex);
        expectProblem(ex, urn("malformed-json"), what);
      });
    },
  },
  {
    id: "ERR-019",
    level: "MUST",
    tags,
    statement:
      "Every must-accept text of the JSONTestSuite corpus the run sends as an OAuth provider create body is answered without a 5xx (it is JSON: a 4xx of the schema or a 2xx)",
    specRef: "interface-spec: Bodies are JSON; Errors (the constraints a request can violate); D-486",
    needs: [],
    async run(ctx) {
      await sendCorpus(ctx, "accept", (ex, c) =>
        ensure(ex.response.status < 500, `a create whose body is ${shown(c)} answered ${ex.response.status}`, ex),
      );
    },
  },
  {
    id: "ERR-020",
    level: "SHOULD",
    tags,
    statement:
      "No must-accept text of the JSONTestSuite corpus the run sends as a create body is answered as malformed JSON (a malformed-json problem): it is parsed, then judged by the schema",
    specRef: "D-17 (malformed-json is for a body that is not JSON), D-486",
    needs: [],
    async run(ctx) {
      await sendCorpus(ctx, "accept", (ex, c) =>
        ensure(
          problemType(ex) !== urn("malformed-json"),
          `a create whose body is ${shown(c)}, which is JSON, answered ${ex.response.status} malformed-json`,
          ex,
        ),
      );
    },
  },
  {
    id: "ERR-021",
    level: "SHOULD",
    tags,
    statement:
      "No implementation-defined text of the JSONTestSuite corpus the run sends as a create body (huge numbers, deep nesting, lone surrogates, other encodings) is answered with a 5xx",
    specRef: "D-486 (RFC 8259 §9: a parser may take or refuse these; it never fails on them)",
    needs: [],
    async run(ctx) {
      await sendCorpus(ctx, "free", (ex, c) =>
        ensure(ex.response.status < 500, `a create whose body is ${shown(c)} answered ${ex.response.status}`, ex),
      );
    },
  },
  {
    id: "ERR-022",
    level: "MUST",
    tags: [...tags, "validation"],
    statement:
      "A provider create body whose required member is spelled in other letters (PROVIDER_ID, Client_Id) lacks that member and is refused with a 4xx: member names are matched as written",
    specRef:
      "interface-spec: 1. Create an OAuth provider (required fields); Errors (constraints); D-25, D-486 (RFC 8259 §8.3: names compare code unit by code unit)",
    needs: [],
    async run(ctx) {
      for (const [member, spelling] of [
        ["provider_id", "PROVIDER_ID"],
        ["client_id", "Client_Id"],
      ] as const)
        expect4xx(
          await tryCreate(ctx, { path: paths.providers, json: respelled(ctx, member, spelling) }, "oauth_provider"),
          `a create whose ${member} is sent as ${spelling}`,
        );
    },
  },
  {
    id: "ERR-023",
    level: "MUST",
    tags,
    statement:
      "A valid OAuth provider create body written with a comment (/* */ or //), a trailing comma, single quotes or unquoted member names is refused with a 4xx, never taken",
    specRef: "interface-spec: Bodies are JSON (none of these is in the grammar of RFC 8259); D-17, D-486",
    needs: [],
    async run(ctx) {
      for (const { label, text } of lenientBodies(ctx))
        expect4xx(
          await tryCreate(
            ctx,
            { path: paths.providers, raw: text, headers: { "Content-Type": "application/json" } },
            "oauth_provider",
          ),
          `a valid create body written with ${label}`,
        );
    },
  },
];
