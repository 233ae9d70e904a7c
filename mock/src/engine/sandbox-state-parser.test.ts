/** `PUT`/`GET /__mock/state` as a client sees them: each refusal's problem and pointer (D-320, D-321, D-395, D-119), each accepted state's round trip, its times, order (D-08) and records kept as given (D-401). */
import { describe, expect, it } from "vitest";
import { createMemorySandbox, type MemorySandbox } from "./memory-sandbox.js";

/** The format tag written out, not imported: a client's state file carries this literal (D-320). */
const format = "deployment-mock-state/1";
const origin = "http://sandbox.test";
const validation = "urn:deployment-service:problem:validation";

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json | Json[] | undefined };

/** A request to the sandbox's fetch core as the session's owner key, the body sent as given (a string as raw text). */
async function call(
  sandbox: MemorySandbox,
  method: string,
  path: string,
  body?: unknown,
  raw = false,
): Promise<Answer> {
  const headers = { "X-Mock-Session": "s", "X-Api-Key": "owner", "Content-Type": "application/json" };
  const text = body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body);
  const response = await sandbox.handle(new Request(`${origin}${path}`, { method, headers, body: text }));
  const answered = await response.text();
  return { status: response.status, body: answered ? JSON.parse(answered) : undefined };
}

const put = (sandbox: MemorySandbox, state: unknown) => call(sandbox, "PUT", "/__mock/state", state);
const snapshot = async (sandbox: MemorySandbox) => (await call(sandbox, "GET", "/__mock/state")).body as Json;
const listed = async (sandbox: MemorySandbox) =>
  ((await call(sandbox, "GET", "/v2/deployments?limit=100")).body as { resources: Json[] }).resources;
const providers = async (sandbox: MemorySandbox) => (await call(sandbox, "GET", "/v2/auth/providers")).body as Json[];

/** The n-th id of a family, a UUID. */
const uuid = (family: number, n: number) => `${family}0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A deployment of a state, every field the contract answers, made `n` seconds into 2026 (times as the sandbox writes them). */
function deployment(n: number, over: Json = {}): Json {
  const at = `2026-01-01T00:00:${String(n).padStart(2, "0")}.000000Z`;
  return {
    id: uuid(0, n),
    tenant_id: uuid(0, 0),
    name: `deployment-${n}`,
    source: "internal_container",
    source_config: {},
    source_revision_config: { image_uri: `registry.example/acme/agent:${n}` },
    secrets: [{ name: "TOKEN" }],
    status: "READY",
    latest_revision_id: null,
    active_revision_id: null,
    secret_references: null,
    image_version: null,
    created_at: at,
    updated_at: at,
    ...over,
  };
}

/** An OAuth provider of a state, every field the contract answers, made `n` seconds into 2026. */
function provider(n: number, over: Json = {}): Json {
  const at = `2026-01-01T00:00:${String(n).padStart(2, "0")}.000000Z`;
  return {
    id: uuid(2, n),
    organization_id: uuid(0, 0),
    provider_id: `provider-${n}`,
    name: `Provider ${n}`,
    client_id: `client-${n}`,
    auth_url: "https://idp.example/authorize",
    token_url: "https://idp.example/token",
    uses_pkce: true,
    code_challenge_method: null,
    provider_type: null,
    mcp_server_url: null,
    token_endpoint_auth_method: "client_secret_post",
    is_dynamic_client: false,
    created_at: at,
    updated_at: at,
    ...over,
  };
}

/** A state of `deployments` (newest first) and `providers`, with other members as given. */
const state = (members: Json = {}): Json => ({ format, deployments: [], oauth_providers: [], ...members });

/** The text the 422 names after its lead-in: the message of the first wrong pointer. */
function named(detail: unknown): string {
  const lead = "The state is not a mock state the sandbox can answer from: ";
  expect(detail).toEqual(expect.stringContaining(lead));
  return (detail as string).slice((detail as string).indexOf(lead) + lead.length);
}

describe("a state the sandbox refuses: 422 naming the first wrong pointer, the session untouched (D-320, D-395)", () => {
  const fine = deployment(1);
  const rows: { name: string; given: unknown; pointer: string }[] = [
    // the root: its pointer is the empty string, so the message names the state and no member
    { name: "a null body", given: null, pointer: "" },
    { name: "an array body", given: [], pointer: "" },
    { name: "a number body", given: 7, pointer: "" },
    { name: "a string body", given: "text", pointer: "" },
    { name: "another format", given: state({ format: "other" }), pointer: "/format" },
    { name: "no format", given: { deployments: [], oauth_providers: [] }, pointer: "/format" },
    { name: "deployments an object", given: state({ deployments: {} }), pointer: "/deployments" },
    { name: "deployments a string", given: state({ deployments: "x" }), pointer: "/deployments" },
    { name: "a null deployment", given: state({ deployments: [null] }), pointer: "/deployments/0" },
    { name: "a number deployment", given: state({ deployments: [1] }), pointer: "/deployments/0" },
    { name: "a string deployment", given: state({ deployments: ["x"] }), pointer: "/deployments/0" },
    { name: "a null after a valid one", given: state({ deployments: [fine, null] }), pointer: "/deployments/1" },
    {
      name: "a null name",
      given: state({ deployments: [deployment(1, { name: null })] }),
      pointer: "/deployments/0/name",
    },
    {
      name: "a number name",
      given: state({ deployments: [deployment(1, { name: 5 })] }),
      pointer: "/deployments/0/name",
    },
    {
      name: "no name",
      given: state({ deployments: [deployment(1, { name: undefined })] }),
      pointer: "/deployments/0/name",
    },
    { name: "a number id", given: state({ deployments: [deployment(1, { id: 1 })] }), pointer: "/deployments/0/id" },
    {
      name: "a number source",
      given: state({ deployments: [deployment(1, { source: 3 })] }),
      pointer: "/deployments/0/source",
    },
    {
      name: "a source not in the contract",
      given: state({ deployments: [deployment(1, { source: "ftp" })] }),
      pointer: "/deployments/0/source",
    },
    {
      name: "an unknown status",
      given: state({ deployments: [deployment(1, { status: "GONE" })] }),
      pointer: "/deployments/0/status",
    },
    {
      name: "a number status",
      given: state({ deployments: [deployment(1, { status: 3 })] }),
      pointer: "/deployments/0/status",
    },
    // the status is checked where it stands, before a later item's fault
    {
      name: "an unknown status, then a null",
      given: state({ deployments: [deployment(1, { status: "GONE" }), null] }),
      pointer: "/deployments/0/status",
    },
    {
      name: "an array source_config",
      given: state({ deployments: [deployment(1, { source_config: [] })] }),
      pointer: "/deployments/0/source_config",
    },
    {
      name: "a number source_config",
      given: state({ deployments: [deployment(1, { source_config: 3 })] }),
      pointer: "/deployments/0/source_config",
    },
    {
      name: "a string source_revision_config",
      given: state({ deployments: [deployment(1, { source_revision_config: "x" })] }),
      pointer: "/deployments/0/source_revision_config",
    },
    {
      name: "a created_at not a time",
      given: state({ deployments: [deployment(1, { created_at: "yesterday" })] }),
      pointer: "/deployments/0/created_at",
    },
    // an unparsable time is named where it stands, before a later item's fault
    {
      name: "a created_at not a time, then a null",
      given: state({ deployments: [deployment(1, { created_at: "yesterday" }), null] }),
      pointer: "/deployments/0/created_at",
    },
    {
      name: "a created_at not a time, then an unknown status",
      given: state({ deployments: [deployment(1, { created_at: "soon" }), deployment(2, { status: "GONE" })] }),
      pointer: "/deployments/0/created_at",
    },
    {
      name: "a number updated_at",
      given: state({ deployments: [deployment(1, { updated_at: 5 })] }),
      pointer: "/deployments/0/updated_at",
    },
    // times from 1970 to 2199 only (D-395): a second before the epoch, the first instant of 2200, and later
    {
      name: "a created_at before 1970",
      given: state({ deployments: [deployment(1, { created_at: "1969-12-31T23:59:59Z" })] }),
      pointer: "/deployments/0/created_at",
    },
    {
      name: "a created_at at 2200",
      given: state({
        deployments: [deployment(1, { created_at: "2200-01-01T00:00:00Z", updated_at: "2200-01-01T00:00:00Z" })],
      }),
      pointer: "/deployments/0/created_at",
    },
    {
      name: "an updated_at at 2200",
      given: state({ deployments: [deployment(1, { updated_at: "2200-01-01T00:00:00Z" })] }),
      pointer: "/deployments/0/updated_at",
    },
    {
      name: "an updated_at before 1970",
      given: state({ deployments: [deployment(1, { updated_at: "1900-01-01T00:00:00Z" })] }),
      pointer: "/deployments/0/updated_at",
    },
    {
      name: "a repeated id",
      given: state({ deployments: [deployment(2), deployment(1, { id: uuid(0, 2) })] }),
      pointer: "/deployments/1/id",
    },
    // names are unique in any letter case (D-119), folded as the store folds them: to lower case
    {
      name: "a repeated name in another case",
      given: state({ deployments: [deployment(2, { name: "Billing" }), deployment(1, { name: "billing" })] }),
      pointer: "/deployments/1/name",
    },
    {
      name: "a Kelvin sign that lower-cases to k",
      given: state({ deployments: [deployment(2, { name: "\u212A8s" }), deployment(1, { name: "k8s" })] }),
      pointer: "/deployments/1/name",
    },
    {
      name: "an empty secret name",
      given: state({ deployments: [deployment(1, { secrets: [{ name: "" }] })] }),
      pointer: "/deployments/0/secrets/0/name",
    },
    {
      name: "no tenant_id",
      given: state({ deployments: [deployment(1, { tenant_id: undefined })] }),
      pointer: "/deployments/0/tenant_id",
    },
    { name: "providers an object", given: state({ oauth_providers: {} }), pointer: "/oauth_providers" },
    { name: "providers a string", given: state({ oauth_providers: "none" }), pointer: "/oauth_providers" },
    { name: "a null provider", given: state({ oauth_providers: [null] }), pointer: "/oauth_providers/0" },
    { name: "a number provider", given: state({ oauth_providers: [3] }), pointer: "/oauth_providers/0" },
    { name: "a string provider", given: state({ oauth_providers: ["x"] }), pointer: "/oauth_providers/0" },
    {
      name: "a number provider id",
      given: state({ oauth_providers: [provider(1, { id: 1 })] }),
      pointer: "/oauth_providers/0/id",
    },
    {
      name: "a number client_id",
      given: state({ oauth_providers: [provider(1, { client_id: 7 })] }),
      pointer: "/oauth_providers/0/client_id",
    },
    // a provider's strings are checked where they stand, before a later item's fault
    {
      name: "a number client_id, then a null",
      given: state({ oauth_providers: [provider(1, { client_id: 7 }), null] }),
      pointer: "/oauth_providers/0/client_id",
    },
    {
      name: "no provider created_at",
      given: state({ oauth_providers: [provider(1, { created_at: undefined })] }),
      pointer: "/oauth_providers/0/created_at",
    },
    {
      name: "a provider created_at past 2199",
      given: state({ oauth_providers: [provider(1, { created_at: "2300-01-01T00:00:00Z" })] }),
      pointer: "/oauth_providers/0/created_at",
    },
    {
      name: "a provider created_at at 2200",
      given: state({ oauth_providers: [provider(1, { created_at: "2200-01-01T00:00:00Z" })] }),
      pointer: "/oauth_providers/0/created_at",
    },
    {
      name: "a provider created_at before 1970",
      given: state({ oauth_providers: [provider(1, { created_at: "1969-07-20T20:17:00Z" })] }),
      pointer: "/oauth_providers/0/created_at",
    },
    {
      name: "two providers of one id (D-430)",
      given: state({ oauth_providers: [provider(1), provider(2, { id: uuid(2, 1) })] }),
      pointer: "/oauth_providers/1/id",
    },
    {
      name: "a provider created_at not a time",
      given: state({ oauth_providers: [provider(1, { created_at: "soon" })] }),
      pointer: "/oauth_providers/0/created_at",
    },
    {
      name: "a provider updated_at before 1970",
      given: state({ oauth_providers: [provider(1, { updated_at: "1900-01-01T00:00:00Z" })] }),
      pointer: "/oauth_providers/0/updated_at",
    },
    {
      name: "a provider updated_at past 2199",
      given: state({ oauth_providers: [provider(1, { updated_at: "2201-01-01T00:00:00Z" })] }),
      pointer: "/oauth_providers/0/updated_at",
    },
    {
      name: "no provider updated_at",
      given: state({ oauth_providers: [provider(1, { updated_at: undefined })] }),
      pointer: "/oauth_providers/0/updated_at",
    },
    {
      name: "a string uses_pkce",
      given: state({ oauth_providers: [provider(1, { uses_pkce: "yes" })] }),
      pointer: "/oauth_providers/0/uses_pkce",
    },
    // the clock: a whole number of ms, 0 or more (D-321), at most 100 years ahead (D-395)
    { name: "a string clock", given: state({ clock_advanced_ms: "soon" }), pointer: "/clock_advanced_ms" },
    { name: "a numeric string clock", given: state({ clock_advanced_ms: "5" }), pointer: "/clock_advanced_ms" },
    { name: "a null clock", given: state({ clock_advanced_ms: null }), pointer: "/clock_advanced_ms" },
    { name: "a clock of -1", given: state({ clock_advanced_ms: -1 }), pointer: "/clock_advanced_ms" },
    { name: "a clock of -5000", given: state({ clock_advanced_ms: -5000 }), pointer: "/clock_advanced_ms" },
    { name: "a clock of 1.5", given: state({ clock_advanced_ms: 1.5 }), pointer: "/clock_advanced_ms" },
    { name: "a clock of -0.5", given: state({ clock_advanced_ms: -0.5 }), pointer: "/clock_advanced_ms" },
    {
      name: "a clock a ms past 100 years",
      given: state({ clock_advanced_ms: 3_153_600_000_001 }),
      pointer: "/clock_advanced_ms",
    },
    // repositories, when given, are an object by integration id
    { name: "number repositories", given: state({ repositories: 7 }), pointer: "/repositories" },
    { name: "string repositories", given: state({ repositories: "x" }), pointer: "/repositories" },
    { name: "array repositories", given: state({ repositories: [] }), pointer: "/repositories" },
    { name: "null repositories", given: state({ repositories: null }), pointer: "/repositories" },
  ];

  it.each(rows)("$name: 422 naming $pointer", async ({ given, pointer }) => {
    const sandbox = createMemorySandbox({ readyAfterMs: 3_600_000 });
    const before = await snapshot(sandbox);
    const answer = await put(sandbox, given);
    expect(answer.status).toBe(422);
    const problem = answer.body as Json;
    expect(problem).toMatchObject({ type: validation, status: 422, title: "Request validation failed" });
    const message = named(problem.detail);
    if (pointer === "") {
      // the root has no pointer to name: the message starts with a word, not with "/" or a blank
      expect(message).toMatch(/^[a-z]/i);
      expect(message).not.toMatch(/^\//);
    } else expect(message.startsWith(`${pointer} `)).toBe(true);
    // a refused state changes nothing: the session holds and answers what it held (D-395)
    expect(await snapshot(sandbox)).toEqual(before);
    expect((await call(sandbox, "GET", "/v2/deployments")).status).toBe(200);
  });

  it("a body that is not JSON is 400 malformed-json, and a state over the session's cap is 503", async () => {
    const sandbox = createMemorySandbox({ maxDeploymentsPerSession: 3 });
    const before = await snapshot(sandbox);
    const garbled = await call(sandbox, "PUT", "/__mock/state", "{not json", true);
    expect(garbled.status).toBe(400);
    expect((garbled.body as Json).type).toBe("urn:deployment-service:problem:malformed-json");
    const many = await put(sandbox, state({ deployments: [4, 3, 2, 1].map((n) => deployment(n)) }));
    expect(many.status).toBe(503);
    expect((many.body as Json).type).toBe("urn:deployment-service:problem:service-unavailable");
    expect(await snapshot(sandbox)).toEqual(before);
  });
});

/** The owner key's tenant and organization, as a state put in the session is rewritten to them. */
async function ownerOf(sandbox: MemorySandbox): Promise<{ tenantId: string; organizationId: string }> {
  expect((await put(sandbox, state({ deployments: [deployment(1)], oauth_providers: [provider(1)] }))).status).toBe(
    204,
  );
  const taken = await snapshot(sandbox);
  return {
    tenantId: (taken.deployments as Json[])[0]!.tenant_id as string,
    organizationId: (taken.oauth_providers as Json[])[0]!.organization_id as string,
  };
}

/** A state's deployment as the list answers it: secrets masked. */
const asListed = (d: Json) => ({
  ...d,
  secrets: (d.secrets as { name: string }[]).map(({ name }) => ({ name, value: "********" })),
});

describe("a state the sandbox takes: 204, then GET /__mock/state and the lists answer it as given (D-320, D-401)", () => {
  it("round-trips a full state: the same state back, the lists showing it, and a second put changing nothing", async () => {
    const sandbox = createMemorySandbox({ readyAfterMs: 3_600_000 });
    const { tenantId, organizationId } = await ownerOf(sandbox);
    const revision = (n: number) => uuid(1, n);
    // every status, revision ids kept as given (D-401), times with microseconds, updated after created
    const given = {
      format: "deployment-mock-state/1",
      deployments: [
        deployment(5, {
          tenant_id: tenantId,
          status: "READY",
          latest_revision_id: revision(5),
          active_revision_id: revision(5),
          created_at: "2026-01-01T00:00:05.654321Z",
          updated_at: "2026-01-01T00:00:09.000001Z",
        }),
        deployment(4, { tenant_id: tenantId, status: "AWAITING_DATABASE", latest_revision_id: revision(4) }),
        deployment(3, { tenant_id: tenantId, status: "UNUSED", secrets: [] }),
        deployment(2, { tenant_id: tenantId, status: "AWAITING_DELETE", image_version: "7" }),
        deployment(1, { tenant_id: tenantId, status: "UNKNOWN", secrets: [{ name: "A" }, { name: "B" }] }),
      ],
      oauth_providers: [
        provider(1, { organization_id: organizationId, code_challenge_method: "S256" }),
        provider(2, {
          organization_id: organizationId,
          uses_pkce: false,
          created_at: "2026-01-01T00:00:02.000000Z",
          updated_at: "2026-01-01T00:00:04.000001Z",
        }),
      ],
      clock_advanced_ms: 5000,
    };
    expect((await put(sandbox, given)).status).toBe(204);
    const back = await snapshot(sandbox);
    expect(back).toEqual(given);
    expect(back.format).toBe("deployment-mock-state/1");
    expect(await listed(sandbox)).toEqual(given.deployments.map(asListed));
    expect(await providers(sandbox)).toEqual(given.oauth_providers);
    // the clock the state gave is the session's clock (D-321)
    expect((await call(sandbox, "POST", "/__mock/clock", { advance_ms: 0 })).body).toEqual({ clock_advanced_ms: 5000 });
    expect((await put(sandbox, back)).status).toBe(204);
    expect(await snapshot(sandbox)).toEqual(given);
  });

  it("rewrites tenant_id and organization_id to the owner's, and a state of nothing empties the session", async () => {
    const sandbox = createMemorySandbox();
    const { tenantId, organizationId } = await ownerOf(sandbox);
    const back = await snapshot(sandbox);
    expect((back.deployments as Json[]).map((d) => d.tenant_id)).toEqual([tenantId]);
    expect((back.oauth_providers as Json[]).map((p) => p.organization_id)).toEqual([organizationId]);
    expect(tenantId).not.toBe(uuid(0, 0));
    expect((await put(sandbox, state())).status).toBe(204);
    expect(await snapshot(sandbox)).toEqual({ ...state(), clock_advanced_ms: 0 });
    expect(await listed(sandbox)).toEqual([]);
    expect(await providers(sandbox)).toEqual([]);
  });

  const edges: { name: string; given: Json; check: (back: Json) => void }[] = [
    {
      name: "deployment times at the epoch",
      given: state({
        deployments: [deployment(1, { created_at: "1970-01-01T00:00:00Z", updated_at: "1970-01-01T00:00:00Z" })],
      }),
      check: (back) => expect((back.deployments as Json[])[0]!.created_at).toBe("1970-01-01T00:00:00.000000Z"),
    },
    {
      name: "deployment times at the last microsecond of 2199",
      given: state({
        deployments: [
          deployment(1, { created_at: "2199-12-31T23:59:59.999999Z", updated_at: "2199-12-31T23:59:59.999999Z" }),
        ],
      }),
      check: (back) => expect((back.deployments as Json[])[0]!.updated_at).toBe("2199-12-31T23:59:59.999999Z"),
    },
    {
      name: "provider times at the epoch",
      given: state({
        oauth_providers: [provider(1, { created_at: "1970-01-01T00:00:00Z", updated_at: "1970-01-01T00:00:00Z" })],
      }),
      check: (back) => expect((back.oauth_providers as Json[])[0]!.created_at).toBe("1970-01-01T00:00:00.000000Z"),
    },
    {
      name: "a clock exactly 100 years ahead",
      given: state({ clock_advanced_ms: 3_153_600_000_000 }),
      check: (back) => expect(back.clock_advanced_ms).toBe(3_153_600_000_000),
    },
    {
      name: "a clock of 0",
      given: state({ clock_advanced_ms: 0 }),
      check: (back) => expect(back.clock_advanced_ms).toBe(0),
    },
    {
      // "straße" and "strasse" differ in lower case, the store's fold (D-119), though they match in upper case
      name: "names equal only in upper case",
      given: state({ deployments: [deployment(2, { name: "straße" }), deployment(1, { name: "strasse" })] }),
      check: (back) => expect((back.deployments as Json[]).map((d) => d.name)).toEqual(["straße", "strasse"]),
    },
    {
      name: "a deployment without secrets",
      given: state({ deployments: [deployment(1, { secrets: undefined })] }),
      check: (back) => expect((back.deployments as Json[])[0]!.secrets).toEqual([]),
    },
    {
      name: "repositories by integration id",
      given: state({ repositories: { [uuid(3, 1)]: [] } }),
      check: (back) => expect(back.deployments).toEqual([]),
    },
  ];

  it.each(edges)("takes $name", async ({ given, check }) => {
    const sandbox = createMemorySandbox();
    expect((await put(sandbox, given)).status).toBe(204);
    const back = await snapshot(sandbox);
    expect(back.format).toBe("deployment-mock-state/1");
    check(back);
    // what the state holds, the lists answer
    expect((await listed(sandbox)).map((d) => d.id)).toEqual((back.deployments as Json[]).map((d) => d.id));
    expect((await providers(sandbox)).map((p) => p.id)).toEqual((back.oauth_providers as Json[]).map((p) => p.id));
  });

  it("a deployment without secrets lists secrets [], its list answer valid", async () => {
    const sandbox = createMemorySandbox();
    expect((await put(sandbox, state({ deployments: [deployment(1, { secrets: undefined })] }))).status).toBe(204);
    const list = await call(sandbox, "GET", "/v2/deployments");
    expect(list.status).toBe(200);
    expect(((list.body as { resources: Json[] }).resources[0] as Json).secrets).toEqual([]);
  });

  // a state's times are kept to the microsecond, whatever the digits of their fraction (D-320: a restore lists what the snapshot held)
  it.each([
    ["2026-01-01T00:00:01.123456Z", "2026-01-01T00:00:01.123456Z"],
    ["2026-01-01T00:00:01.654321Z", "2026-01-01T00:00:01.654321Z"],
    ["2026-01-01T00:00:02Z", "2026-01-01T00:00:02.000000Z"],
    ["2026-01-01T00:00:01.500Z", "2026-01-01T00:00:01.500000Z"],
    ["2026-01-01T00:00:01.1234Z", "2026-01-01T00:00:01.123400Z"],
    ["2026-01-01T00:00:01.12345Z", "2026-01-01T00:00:01.123450Z"],
  ])("a created_at %s is listed as %s", async (given, want) => {
    const sandbox = createMemorySandbox();
    expect(
      (await put(sandbox, state({ deployments: [deployment(1, { created_at: given, updated_at: given })] }))).status,
    ).toBe(204);
    const [only] = await listed(sandbox);
    expect([only!.created_at, only!.updated_at]).toEqual([want, want]);
  });
});

describe("the order of a state's deployments (D-08: newest first)", () => {
  it("lists a state given oldest first newest first", async () => {
    const sandbox = createMemorySandbox();
    const oldestFirst = [1, 2, 3].map((n) => deployment(n));
    expect((await put(sandbox, state({ deployments: oldestFirst }))).status).toBe(204);
    expect((await listed(sandbox)).map((d) => d.id)).toEqual([uuid(0, 3), uuid(0, 2), uuid(0, 1)]);
    expect(((await snapshot(sandbox)).deployments as Json[]).map((d) => d.id)).toEqual([
      uuid(0, 3),
      uuid(0, 2),
      uuid(0, 1),
    ]);
  });

  it("keeps the state's order of deployments made at one instant, through a snapshot and a put back", async () => {
    const sandbox = createMemorySandbox();
    const at = "2026-01-01T00:00:01.000000Z";
    // the first has the greater id, so the state's order is also D-08's id-descending order
    const tied = [deployment(2, { created_at: at, updated_at: at }), deployment(1, { created_at: at, updated_at: at })];
    expect((await put(sandbox, state({ deployments: tied }))).status).toBe(204);
    const ids = [uuid(0, 2), uuid(0, 1)];
    expect((await listed(sandbox)).map((d) => d.id)).toEqual(ids);
    const back = await snapshot(sandbox);
    expect((await put(sandbox, back)).status).toBe(204);
    expect((await listed(sandbox)).map((d) => d.id)).toEqual(ids);
  });

  it("a snapshot after creates holds the deployments in the list's order, newest first", async () => {
    const sandbox = createMemorySandbox();
    expect((await put(sandbox, state({ deployments: [deployment(1)] }))).status).toBe(204);
    for (const name of ["made-one", "made-two"]) {
      const made = await call(sandbox, "POST", "/v2/deployments", {
        name,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/acme/agent:1" },
        secrets: [],
      });
      expect(made.status).toBe(201);
    }
    const names = ((await snapshot(sandbox)).deployments as Json[]).map((d) => d.name);
    expect(names).toEqual(["made-two", "made-one", "deployment-1"]);
    expect((await listed(sandbox)).map((d) => d.name)).toEqual(names);
  });
});
