/** Checks of operations 1 and 2 (interface-spec: Create an OAuth provider, List OAuth providers; D-06, D-28, D-08, D-37/D-38, D-54/D-55, D-58). */

import { ensure, expect2xx, expect4xx, expectStatus, isObject } from "../check-kit/assert.js";
import {
  createProvider,
  differences,
  instant,
  type Json,
  listProviders,
  paths,
  plainProvider,
  providerAsStated,
  secretProvider,
  sendProviderCreate,
} from "../check-kit/helpers.js";
import { enumRoundWhere, nullsProvider, sharedAnswerConforms } from "../check-kit/shared-providers.js";
import { providerBody } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

const create = ["createOAuthProvider", "providers"];
const list = ["listOAuthProviders", "providers"];
const requiredFields = ["provider_id", "name", "client_id", "auth_url", "token_url"];

/** Bodies that break a rule the interface spec states: a missing required field or a value outside an enum. */
function specInvalidBodies(ctx: CheckContext): { label: string; body: Json }[] {
  const out: { label: string; body: Json }[] = [];
  for (const field of requiredFields) {
    const body = providerBody(ctx.name("prov-bad"));
    delete body[field];
    out.push({ label: `without ${field}`, body });
  }
  out.push({
    label: "provider_type outside the enum",
    // not a lowercase vendor name, so outside whichever three the target takes (the spec's values are placeholders)
    body: { ...providerBody(ctx.name("prov-bad")), provider_type: "NOT_A_VENDOR" },
  });
  out.push({
    label: "token_endpoint_auth_method outside the enum",
    body: { ...providerBody(ctx.name("prov-bad")), token_endpoint_auth_method: "private_key_jwt" },
  });
  return out;
}

async function rejectsAll(
  ctx: CheckContext,
  bodies: { label: string; body: Json }[],
  want: "4xx" | 422,
): Promise<void> {
  for (const { label, body } of bodies) {
    const ex = await ctx.send({ method: "POST", path: paths.providers, json: body, operation: "createOAuthProvider" });
    if (want === "4xx") expect4xx(ex, `create OAuth provider ${label}`);
    else expectStatus(ex, 422, `create OAuth provider ${label}`);
  }
}

const semanticTags = ["semantics"];

export const providerChecks: Check[] = [
  {
    id: "PROV-CREATE-001",
    level: "MUST",
    tags: create,
    statement:
      "Creating a provider with the five required fields succeeds (2xx) and returns the record with the values sent",
    specRef: "interface-spec: 1. Create an OAuth provider; OAuth provider response record",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record, body } = await plainProvider(ctx);
      const diff = differences(record, body);
      ensure(diff.length === 0, `the record differs from the request: ${diff.join("; ")}`, exchange);
    },
  },
  {
    id: "PROV-CREATE-002",
    level: "SHOULD",
    tags: create,
    statement: "Creating a provider answers 200",
    specRef: "D-06 (create provider 200)",
    needs: ["write"],
    async run(ctx) {
      expectStatus((await plainProvider(ctx)).exchange, 200, "create OAuth provider");
    },
  },
  {
    id: "PROV-CREATE-003",
    level: "MUST",
    tags: [...create, "defaults"],
    statement: "uses_pkce defaults to false",
    specRef: "interface-spec: OAuth provider creation request body, uses_pkce default false",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await plainProvider(ctx);
      ensure(record.uses_pkce === false, `uses_pkce is ${JSON.stringify(record.uses_pkce)}, expected false`, exchange);
    },
  },
  {
    id: "PROV-CREATE-004",
    level: "MUST",
    tags: [...create, "defaults"],
    statement: "code_challenge_method defaults to S256",
    specRef: "interface-spec: OAuth provider creation request body, code_challenge_method default S256",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await plainProvider(ctx);
      ensure(
        record.code_challenge_method === "S256",
        `code_challenge_method is ${JSON.stringify(record.code_challenge_method)}, expected "S256"`,
        exchange,
      );
    },
  },
  {
    id: "PROV-CREATE-005",
    level: "MUST",
    tags: [...create, "defaults"],
    statement: "token_endpoint_auth_method defaults to client_secret_post (absent in the response means the default)",
    specRef:
      "interface-spec: OAuth provider creation request body and response record, token_endpoint_auth_method default client_secret_post",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await plainProvider(ctx);
      const v = record.token_endpoint_auth_method;
      ensure(
        v === undefined || v === "client_secret_post",
        `token_endpoint_auth_method is ${JSON.stringify(v)}, expected "client_secret_post"`,
        exchange,
      );
    },
  },
  {
    id: "PROV-CREATE-006",
    level: "MUST",
    tags: [...create, "defaults"],
    statement: "is_dynamic_client of a manually created provider is false (absent means the default false)",
    specRef: "interface-spec: OAuth provider response record, is_dynamic_client default false",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await plainProvider(ctx);
      ensure(
        record.is_dynamic_client === undefined || record.is_dynamic_client === false,
        `is_dynamic_client is ${JSON.stringify(record.is_dynamic_client)}, expected false`,
        exchange,
      );
    },
  },
  {
    id: "PROV-CREATE-007",
    level: "MUST",
    tags: [...create, "secrets"],
    statement: "client_secret is accepted on create and is not a field of the response",
    specRef:
      'interface-spec: OAuth provider creation request body, client_secret: "It is not a field of the provider response"',
    needs: ["write"],
    async run(ctx) {
      const { exchange: ex, secret } = await secretProvider(ctx);
      ensure(isObject(ex.json) && !("client_secret" in ex.json), "the response carries a client_secret field", ex);
      ensure(!JSON.stringify(ex.json).includes(secret), "the response carries the client secret value", ex);
    },
  },
  {
    id: "PROV-CREATE-008",
    level: "MUST",
    tags: create,
    statement:
      "Optional fields sent (uses_pkce, code_challenge_method S256, provider_type null, token_endpoint_auth_method, with values the spec lists) are returned as sent",
    specRef: "interface-spec: OAuth provider creation request body",
    needs: ["write", "state"],
    async run(ctx) {
      const body = {
        ...providerBody(ctx.name("prov")),
        uses_pkce: true,
        code_challenge_method: "S256",
        // the three vendor names are placeholders in the interface spec (which three is D-57): null is stated
        provider_type: null,
        token_endpoint_auth_method: "client_secret_basic",
      };
      const { exchange, record } = await createProvider(ctx, body);
      // provider_type is an optional response field: absent reads as null (D-233)
      const diff = differences(providerAsStated(record), {
        uses_pkce: true,
        code_challenge_method: "S256",
        provider_type: null,
        token_endpoint_auth_method: "client_secret_basic",
      });
      ensure(diff.length === 0, diff.join("; "), exchange);
    },
  },
  {
    id: "PROV-CREATE-009",
    level: "MUST",
    tags: [...create, "validation"],
    statement:
      "A body without a required field, or with provider_type / token_endpoint_auth_method outside its enum, is rejected with a 4xx",
    specRef: "interface-spec: 1. Create an OAuth provider (required fields); Errors (constraints)",
    needs: [],
    async run(ctx) {
      await rejectsAll(ctx, specInvalidBodies(ctx), "4xx");
    },
  },
  {
    id: "PROV-CREATE-010",
    level: "SHOULD",
    tags: [...create, "validation"],
    statement: "Those schema violations answer 422",
    specRef: "D-16 (422 when a request breaks the schema)",
    needs: [],
    async run(ctx) {
      await rejectsAll(ctx, specInvalidBodies(ctx), 422);
    },
  },
  {
    id: "PROV-CREATE-011",
    level: "SHOULD",
    tags: [...create, "duplicates"],
    statement: "A provider_id already used in the organization answers 409",
    specRef: "D-37/D-38 (provider_id unique per organization, 409)",
    needs: ["write", "state"],
    async run(ctx) {
      // a provider the organization holds: the run's shared one (D-245)
      const { body } = await plainProvider(ctx);
      const again = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: { ...body, name: "Duplicate" },
        operation: "createOAuthProvider",
        noValidate: true,
      });
      if (again.response.status < 300 && isObject(again.json))
        ctx.created({ kind: "oauth_provider", id: String(again.json.id), name: String(body.provider_id), key: "main" });
      expectStatus(again, 409, "create OAuth provider with a duplicate provider_id");
    },
  },
  {
    id: "PROV-CREATE-017",
    level: "SHOULD",
    tags: [...create, "duplicates"],
    statement:
      "Only provider_id makes a provider a duplicate: a provider equal to one the organization holds in every other field (name, client_id, both URLs) is created, and both are listed once",
    specRef: "D-38 (provider_id unique per organization), D-22 (409 for a provider_id already used, for nothing else)",
    needs: ["write", "state"],
    async run(ctx) {
      const { record, body } = await plainProvider(ctx);
      // a server that keys providers by name or client_id refuses this twin, or lists one of the two
      const twin = await createProvider(ctx, { ...body, provider_id: ctx.name("twin") });
      const { exchange, records } = await listProviders(ctx);
      for (const id of [record.id, twin.record.id]) {
        const listed = records.filter((r) => r.id === id).length;
        ensure(listed === 1, `provider ${String(id)} is listed ${listed} times, not once, beside its twin`, exchange);
      }
    },
  },
  {
    id: "PROV-CREATE-012",
    level: "SHOULD",
    tags: [...create, "read-only"],
    statement:
      "Read-only fields sent on create (id, organization_id, created_at, updated_at, mcp_server_url, is_dynamic_client) are ignored",
    specRef: "D-28 (read-only fields sent by a client are ignored)",
    needs: ["write", "state"],
    async run(ctx) {
      const body = {
        ...providerBody(ctx.name("prov")),
        id: "cf-forged-id",
        organization_id: "00000000-0000-4000-8000-000000000000",
        created_at: "2001-01-01T00:00:00Z",
        updated_at: "2001-01-01T00:00:00Z",
        mcp_server_url: "https://mcp.example.com",
        is_dynamic_client: true,
      };
      const { exchange, record } = await createProvider(ctx, body);
      const honoured = [
        "id",
        "organization_id",
        "created_at",
        "updated_at",
        "mcp_server_url",
        "is_dynamic_client",
      ].filter((k) => JSON.stringify(record[k]) === JSON.stringify(body[k as keyof typeof body]));
      ensure(honoured.length === 0, `read-only fields were taken from the request: ${honoured.join(", ")}`, exchange);
    },
  },
  {
    id: "PROV-CREATE-013",
    level: "SHOULD",
    tags: [...create, "unknown-fields"],
    statement: "Unknown fields on create are ignored: the request succeeds and they are not returned",
    specRef: "D-28 (unknown request fields are ignored and never stored)",
    needs: ["write", "state"],
    async run(ctx) {
      const body = { ...providerBody(ctx.name("prov")), cf_unknown_field: "cf-unknown-value", scopes: ["a"] };
      const { exchange, record } = await createProvider(ctx, body);
      ensure(
        !("cf_unknown_field" in record) && !("scopes" in record),
        "unknown request fields are echoed in the record",
        exchange,
      );
      const { exchange: listed, records } = await listProviders(ctx);
      const stored = records.find((r) => r.id === record.id);
      ensure(stored && !("cf_unknown_field" in stored), "unknown request fields are returned by the list", listed);
    },
  },
  {
    id: "PROV-CREATE-014",
    level: "SHOULD",
    tags: [...create, "validation"],
    statement: "code_challenge_method other than S256 or plain answers 422",
    specRef: "D-58 (code_challenge_method S256 or plain, 422 otherwise)",
    needs: [],
    async run(ctx) {
      const ex = await ctx.send({
        method: "POST",
        path: paths.providers,
        json: { ...providerBody(ctx.name("prov-bad")), code_challenge_method: "S512" },
        operation: "createOAuthProvider",
      });
      expectStatus(ex, 422, "create OAuth provider with code_challenge_method S512");
    },
  },
  {
    id: "PROV-CREATE-015",
    level: "SHOULD",
    tags: [...create, "validation"],
    statement:
      "auth_url and token_url must be absolute https URLs (http only for the loopback hosts localhost, 127.0.0.0/8 and ::1, which are accepted), without a fragment; others answer 422 naming the field; so are URLs the URI grammar takes but a URL parser refuses (port 99999, host 999.999.999.999), each named with a detail",
    specRef: "D-58 (absolute https URLs, http for loopback hosts), RFC 6749 §3.1 and §3.2 (no fragment)",
    needs: ["server"],
    async run(ctx) {
      for (const [field, value] of [
        ["auth_url", "http://auth.example.com/authorize"],
        ["token_url", "not a url"],
        ["auth_url", "/relative/path"],
        ["token_url", "ftp://auth.example.com/token"],
        ["auth_url", "https://auth.example.com/authorize#section"],
        ["token_url", "http://127.example.com/token"],
        ["auth_url", "https://auth.example.com/authorize#"],
        ["token_url", "ftp://localhost/token"],
        ["token_url", "http://10.0.0.1/token"],
        ["auth_url", "http://[2001:db8::1]/authorize"],
      ] as const) {
        const ex = await ctx.send({
          method: "POST",
          path: paths.providers,
          json: { ...providerBody(ctx.name("prov-bad")), [field]: value },
          operation: "createOAuthProvider",
        });
        const what = `create OAuth provider with ${field} ${JSON.stringify(value)}`;
        expectStatus(ex, 422, what);
        const errors = isObject(ex.json) && Array.isArray(ex.json.errors) ? ex.json.errors : [];
        ensure(
          errors.some((e) => isObject(e) && e.pointer === `/${field}`),
          `${what}: the 422 does not name /${field} in errors[].pointer`,
          ex,
        );
      }
      if (ctx.config.readOnly) return;
      // URLs RFC 3986's grammar takes (so a uri format passes them) but a URL parser refuses: a port past 65535, an
      // IPv4 host with an octet past 255; D-58 checks with a real parser, so each is refused and named with a detail
      const edge: Json = {
        ...providerBody(ctx.name("prov-edge")),
        auth_url: "https://auth.example.com:99999/authorize",
        token_url: "https://999.999.999.999/token",
      };
      const edgeEx = await sendProviderCreate(ctx, edge);
      const edgeWhat = `create OAuth provider with auth_url ${edge.auth_url} and token_url ${edge.token_url}`;
      expectStatus(edgeEx, 422, edgeWhat);
      const items = isObject(edgeEx.json) && Array.isArray(edgeEx.json.errors) ? edgeEx.json.errors : [];
      for (const field of ["auth_url", "token_url"])
        ensure(
          items.some(
            (e) => isObject(e) && e.pointer === `/${field}` && typeof e.detail === "string" && e.detail.trim() !== "",
          ),
          `${edgeWhat}: the 422's errors[] has no item for /${field} with a detail (D-16)`,
          edgeEx,
        );
      // the three loopback hosts in two creates, both URLs of a body loopback ones (D-245)
      for (const urls of [
        { auth_url: "http://localhost:8080/authorize", token_url: "http://127.0.0.2/token" },
        { auth_url: "http://[::1]:9000/authorize", token_url: "http://localhost/token" },
      ]) {
        const ex = await sendProviderCreate(ctx, { ...providerBody(ctx.name("prov-loop")), ...urls });
        expect2xx(
          ex,
          `create OAuth provider with the loopback auth_url ${urls.auth_url} and token_url ${urls.token_url} (D-58 allows http there)`,
        );
      }
    },
  },
  {
    id: "PROV-LIST-001",
    level: "MUST",
    tags: list,
    statement: "Listing providers answers 200 with a JSON array of provider records",
    specRef: 'interface-spec: 2. List OAuth providers ("Response: 200, a JSON array")',
    needs: [],
    async run(ctx) {
      const ex = await ctx.send({ method: "GET", path: paths.providers, operation: "listOAuthProviders" });
      expectStatus(ex, 200, "list OAuth providers");
      ensure(Array.isArray(ex.json), "the body is not a JSON array", ex);
    },
  },
  {
    id: "PROV-LIST-002",
    level: "MUST",
    tags: list,
    statement: "A created provider is listed exactly once with the values returned on create",
    specRef:
      'interface-spec: 2. List OAuth providers; What the service does 1 ("Definitions can be created and listed")',
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await plainProvider(ctx);
      const { exchange, records } = await listProviders(ctx);
      const found = records.filter((r) => r.id === record.id);
      ensure(found.length === 1, `the created provider ${String(record.id)} is listed ${found.length} times`, exchange);
      const { created_at, updated_at, ...rest } = record;
      const diff = differences(found[0]!, rest);
      ensure(diff.length === 0, `the listed record differs from the created one: ${diff.join("; ")}`, exchange);
    },
  },
  {
    id: "PROV-LIST-003",
    level: "MUST",
    tags: [...list, "secrets"],
    statement: "No listed provider carries client_secret, including one created with a secret",
    specRef: 'interface-spec: client_secret "is not a field of the provider response"',
    needs: [],
    async run(ctx) {
      if (!ctx.config.readOnly) await secretProvider(ctx);
      const { exchange, records } = await listProviders(ctx);
      const leaking = records.filter((r) => isObject(r) && "client_secret" in r);
      ensure(leaking.length === 0, `${leaking.length} listed providers carry client_secret`, exchange);
    },
  },
  {
    id: "PROV-LIST-004",
    level: "SHOULD",
    tags: [...list, "ordering"],
    statement: "Providers are listed oldest first",
    specRef: "D-08 (OAuth providers oldest first)",
    needs: [],
    async run(ctx) {
      if (!ctx.config.readOnly && !ctx.config.stateless) {
        // two providers created one after the other: the area's shared ones (D-245)
        await plainProvider(ctx);
        await secretProvider(ctx);
      }
      const { exchange, records } = await listProviders(ctx);
      for (let i = 1; i < records.length; i++) {
        const a = instant(records[i - 1]!.created_at) ?? 0n;
        const b = instant(records[i]!.created_at) ?? 0n;
        ensure(
          a <= b,
          `provider ${i} (created ${String(records[i]!.created_at)}) is listed after a newer one (${String(records[i - 1]!.created_at)})`,
          exchange,
        );
      }
    },
  },
  {
    id: "PROV-LIST-005",
    level: "MUST",
    tags: [...list, "defaults"],
    statement:
      "A provider created with only the required fields is listed with the defaults (uses_pkce false, code_challenge_method S256, token_endpoint_auth_method client_secret_post)",
    specRef: "interface-spec: OAuth provider creation request body (defaults)",
    needs: ["write", "state"],
    async run(ctx) {
      const { record } = await plainProvider(ctx);
      const { exchange, records } = await listProviders(ctx);
      const r = records.find((x) => x.id === record.id);
      ensure(r, "the created provider is not listed", exchange);
      const diff = differences(r, { uses_pkce: false, code_challenge_method: "S256" });
      if (r.token_endpoint_auth_method !== undefined && r.token_endpoint_auth_method !== "client_secret_post")
        diff.push(`token_endpoint_auth_method: got ${JSON.stringify(r.token_endpoint_auth_method)}`);
      ensure(diff.length === 0, diff.join("; "), exchange);
    },
  },

  {
    id: "PROV-CREATE-016",
    level: "SHOULD",
    tags: create,
    statement: "code_challenge_method plain is accepted and returned as sent",
    specRef: "D-58 (code_challenge_method S256 or plain)",
    needs: ["write", "state"],
    async run(ctx) {
      // the run's enum body with plain, where the target took it (D-245); else a body of its own
      const shared = await enumRoundWhere(ctx, (body) => body.code_challenge_method === "plain");
      const { exchange, record } = shared?.record
        ? { exchange: shared.exchange, record: shared.record }
        : await createProvider(ctx, {
            ...providerBody(ctx.name("prov")),
            uses_pkce: true,
            code_challenge_method: "plain",
          });
      ensure(
        record.code_challenge_method === "plain",
        `code_challenge_method is ${JSON.stringify(record.code_challenge_method)}, expected "plain"`,
        exchange,
      );
      if (shared?.record) sharedAnswerConforms(ctx, shared.exchange);
    },
  },
  {
    id: "SEM-007",
    level: "MUST",
    tags: [...semanticTags, "defaults", "createOAuthProvider", "listOAuthProviders"],
    statement:
      "Defaults hold whichever optional fields are sent: uses_pkce false, code_challenge_method S256, token_endpoint_auth_method client_secret_post, on create and in the list",
    specRef: "interface-spec: OAuth provider creation request body (defaults); OAuth provider response record",
    needs: ["write", "state"],
    async run(ctx) {
      // each optional field sent in one variant and left out of another, two to a body; each variant a body the run
      // shares where the target took it (D-245), else one of its own
      const optional = (body: Json): Json =>
        Object.fromEntries(Object.entries(body).filter(([field]) => !requiredFields.includes(field)));
      const variants: {
        sent: Json;
        shared: () => Promise<{ body: Json; exchange: Exchange; record?: Json } | undefined>;
      }[] = [
        // the run's plain provider, whose answer the checks of operation 1 judge
        { sent: {}, shared: () => plainProvider(ctx) },
        // which vendor names provider_type takes is D-57; null is stated. Shared with BOUND-005 (client_secret null too)
        { sent: { uses_pkce: true, provider_type: null }, shared: () => nullsProvider(ctx) },
        // uses_pkce left out beside the others sent: an enum body of BOUND-003 and BOUND-004
        {
          sent: { token_endpoint_auth_method: "none", code_challenge_method: "S256" },
          shared: () =>
            enumRoundWhere(
              ctx,
              (b) =>
                b.uses_pkce === undefined &&
                b.code_challenge_method === "S256" &&
                b.token_endpoint_auth_method !== undefined,
            ),
        },
      ];
      const made: { sent: Json; record: Json }[] = [];
      const sharedAnswers: Exchange[] = [];
      for (const [i, v] of variants.entries()) {
        const shared = await v.shared();
        if (shared?.record && i > 0) sharedAnswers.push(shared.exchange);
        if (shared?.record) made.push({ sent: optional(shared.body), record: shared.record });
        else {
          const { record } = await createProvider(ctx, { ...providerBody(ctx.name("dflt")), ...v.sent });
          made.push({ sent: v.sent, record });
        }
      }
      const { exchange, records } = await listProviders(ctx);
      for (const { sent, record } of made) {
        const want: Json = {
          uses_pkce: sent.uses_pkce ?? false,
          code_challenge_method: sent.code_challenge_method ?? "S256",
        };
        const tokenMethod = sent.token_endpoint_auth_method ?? "client_secret_post";
        for (const [where, r, ex] of [
          ["create", record, exchange],
          ["list", records.find((x) => x.id === record.id), exchange],
        ] as const) {
          ensure(r, `the provider sent with ${JSON.stringify(sent)} is not listed`, ex);
          const diff = differences(r, want);
          if (
            !(
              r.token_endpoint_auth_method === tokenMethod ||
              (r.token_endpoint_auth_method === undefined && tokenMethod === "client_secret_post")
            )
          )
            diff.push(`token_endpoint_auth_method: got ${JSON.stringify(r.token_endpoint_auth_method)}`);
          ensure(diff.length === 0, `${where}, sent ${JSON.stringify(sent)}: ${diff.join("; ")}`, ex);
        }
      }
      for (const answer of sharedAnswers) sharedAnswerConforms(ctx, answer);
    },
  },
  {
    id: "SEM-008",
    level: "MUST",
    tags: [...semanticTags, "secrets", "createOAuthProvider", "listOAuthProviders"],
    statement: "A client_secret value sent on create appears in no answer, under any field name (create and list)",
    specRef: 'interface-spec: client_secret "It is not a field of the provider response"',
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, secret } = await secretProvider(ctx);
      ensure(
        !JSON.stringify(exchange.json).includes(secret),
        "the create answer carries the client secret value",
        exchange,
      );
      const listed = await listProviders(ctx);
      ensure(
        !JSON.stringify(listed.exchange.json).includes(secret),
        "the provider list carries the client secret value",
        listed.exchange,
      );
    },
  },
  {
    id: "PROV-CREATE-018",
    level: "SHOULD",
    tags: [...create, "defaults"],
    statement:
      "mcp_server_url of a provider created by operation 1 is null (absent means null), in its create answer and in the list: only the dynamic client registration flow sets it",
    specRef: "D-59 (mcp_server_url null for a provider created by operation 1)",
    needs: ["write", "state"],
    async run(ctx) {
      const { exchange, record } = await plainProvider(ctx);
      const set = (value: unknown) => value !== undefined && value !== null;
      ensure(
        !set(record.mcp_server_url),
        `the create answers mcp_server_url ${JSON.stringify(record.mcp_server_url)}, expected null`,
        exchange,
      );
      const listed = await listProviders(ctx);
      const again = listed.records.find((r) => r.id === record.id);
      ensure(
        again === undefined || !set(again.mcp_server_url),
        `the list answers mcp_server_url ${JSON.stringify(again?.mcp_server_url)}, expected null`,
        listed.exchange,
      );
    },
  },
];
