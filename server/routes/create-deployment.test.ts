/** Tests of operation 6 over HTTP: success per source, per-source rules (400), hosting kinds, codehost resolution, side effects, 409 race. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyFor, codehostBody, ids } from "../testing/fixtures.js";
import { inspectStore } from "../testing/store-inspector.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";

let cloud: TestServer;
let selfHosted: TestServer;

beforeAll(async () => {
  [cloud, selfHosted] = await Promise.all([startTestServer(), startTestServer({ hosting: "self_hosted" })]);
});
afterAll(async () => {
  await Promise.all([cloud?.close(), selfHosted?.close()]);
});

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${++counter}`;

describe("success per source", () => {
  const cases = [
    { source: "codehost", server: () => cloud, sha: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", version: null },
    { source: "internal_container", server: () => cloud, sha: null, version: "2.0.0" },
    { source: "internal_source", server: () => cloud, sha: null, version: null },
    { source: "internal_template", server: () => cloud, sha: null, version: null },
    { source: "external_container", server: () => selfHosted, sha: null, version: "1.4.2" },
  ];
  for (const { source, server, sha, version } of cases) {
    it(`creates a ${source} deployment: 201, AWAITING_DATABASE, revision and tracing project`, async () => {
      const name = uniqueName(source.replace(/_/g, "-"));
      const response = await server().request("POST", "/v2/deployments", { body: bodyFor(source, name) });
      expect(response.status).toBe(201);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const d = response.body;
      expect(d).toMatchObject({
        name,
        source,
        status: "AWAITING_DATABASE",
        active_revision_id: null,
        tenant_id: ids.acmeProduction,
        image_version: version,
      });
      expect(d.source_revision_config.repo_commit_sha).toBe(sha);
      expect(d.latest_revision_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(d.source_config).sort()).toEqual([
        "build_command",
        "build_on_push",
        "custom_url",
        "install_command",
        "integration_id",
        "listener_config",
        "listener_id",
        "repo_url",
        "resource_spec",
      ]);
      const project = await inspectStore(server().store).getTracingProject(ids.acmeProduction, name);
      expect(project?.deploymentId).toBe(d.id);
      const revisions = await inspectStore(server().store).listRevisions(ids.acmeProduction, d.id, 0);
      expect(revisions.map((r) => r.id)).toEqual([d.latest_revision_id]);
    });
  }
});

describe("per-source rules (400 naming the field)", () => {
  const cases: Array<{ given: string; source: string; change: (b: any) => void; pointer: string }> = [
    {
      given: "codehost without repo_ref",
      source: "codehost",
      change: (b) => delete b.source_revision_config.repo_ref,
      pointer: "/source_revision_config/repo_ref",
    },
    {
      given: "codehost without integration_id",
      source: "codehost",
      change: (b) => (b.source_config.integration_id = null),
      pointer: "/source_config/integration_id",
    },
    {
      given: "codehost without repo_url",
      source: "codehost",
      change: (b) => delete b.source_config.repo_url,
      pointer: "/source_config/repo_url",
    },
    {
      given: "codehost without graph_config_path",
      source: "codehost",
      change: (b) => delete b.source_revision_config.graph_config_path,
      pointer: "/source_revision_config/graph_config_path",
    },
    {
      given: "codehost with image_uri",
      source: "codehost",
      change: (b) => (b.source_revision_config.image_uri = "r.example/a:1"),
      pointer: "/source_revision_config/image_uri",
    },
    {
      given: "codehost with resource_spec",
      source: "codehost",
      change: (b) => (b.source_config.resource_spec = { cpu: 1 }),
      pointer: "/source_config/resource_spec",
    },
    {
      given: "codehost with secret_references",
      source: "codehost",
      change: (b) => (b.secret_references = [{ name: "a", secret_name: "b", secret_key: "c" }]),
      pointer: "/secret_references",
    },
    {
      given: "internal_container without image_uri",
      source: "internal_container",
      change: (b) => delete b.source_revision_config.image_uri,
      pointer: "/source_revision_config/image_uri",
    },
    {
      given: "internal_container with graph_config_path",
      source: "internal_container",
      change: (b) => (b.source_revision_config.graph_config_path = "g.json"),
      pointer: "/source_revision_config/graph_config_path",
    },
    {
      given: "internal_container with custom_url",
      source: "internal_container",
      change: (b) => (b.source_config.custom_url = "https://x.example"),
      pointer: "/source_config/custom_url",
    },
    {
      given: "internal_container with a bad image reference",
      source: "internal_container",
      change: (b) => (b.source_revision_config.image_uri = "Not An Image!"),
      pointer: "/source_revision_config/image_uri",
    },
    {
      given: "internal_source without source_tarball_path",
      source: "internal_source",
      change: (b) => delete b.source_revision_config.source_tarball_path,
      pointer: "/source_revision_config/source_tarball_path",
    },
    {
      given: "internal_source without graph_config_path",
      source: "internal_source",
      change: (b) => (b.source_revision_config.graph_config_path = ""),
      pointer: "/source_revision_config/graph_config_path",
    },
    {
      given: "internal_source with build_on_push",
      source: "internal_source",
      change: (b) => (b.source_config.build_on_push = false),
      pointer: "/source_config/build_on_push",
    },
    {
      given: "internal_template with graph_config_path",
      source: "internal_template",
      change: (b) => (b.source_revision_config.graph_config_path = "g.json"),
      pointer: "/source_revision_config/graph_config_path",
    },
    {
      given: "internal_template with repo_ref",
      source: "internal_template",
      change: (b) => (b.source_revision_config.repo_ref = "main"),
      pointer: "/source_revision_config/repo_ref",
    },
    {
      given: "internal_template with listener_id",
      source: "internal_template",
      change: (b) => (b.source_config.listener_id = "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7"),
      pointer: "/source_config/listener_id",
    },
    {
      given: "codehost with an integration of another tenant",
      source: "codehost",
      change: (b) => (b.source_config.integration_id = ids.globexIntegration),
      pointer: "/source_config/integration_id",
    },
    {
      given: "codehost with a repository not in the integration",
      source: "codehost",
      change: (b) => (b.source_config.repo_url = "https://codehost.example/acme/billing-graph"),
      pointer: "/source_config/repo_url",
    },
    {
      given: "codehost with an unknown branch",
      source: "codehost",
      change: (b) => (b.source_revision_config.repo_ref = "nope"),
      pointer: "/source_revision_config/repo_ref",
    },
    {
      given: "codehost with an unknown tag",
      source: "codehost",
      change: (b) => (b.source_revision_config.repo_ref = "refs/tags/v9"),
      pointer: "/source_revision_config/repo_ref",
    },
    {
      given: "codehost with build_on_push on a tag",
      source: "codehost",
      change: (b) => {
        b.source_revision_config.repo_ref = "refs/tags/v1.0.0";
        b.source_config.build_on_push = true;
      },
      pointer: "/source_config/build_on_push",
    },
    {
      given: "codehost with a repo_url that is not a URL",
      source: "codehost",
      change: (b) => (b.source_config.repo_url = "codehost:acme"),
      pointer: "/source_config/repo_url",
    },
  ];
  for (const { given, source, change, pointer } of cases) {
    it(given, async () => {
      const name = uniqueName("rule");
      const body = bodyFor(source, name);
      change(body);
      const response = await cloud.request("POST", "/v2/deployments", { body });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.body.type).toBe("urn:deployment-service:problem:source-rule");
      expect(response.body.detail).toMatch(/^Source configuration error: /);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      // Nothing was stored.
      expect(await inspectStore(cloud.store).getTracingProject(ids.acmeProduction, name)).toBeUndefined();
    });
  }

  it("words the missing repo_ref like the production service", async () => {
    const body = codehostBody(uniqueName("wording"));
    delete (body.source_revision_config as Record<string, unknown>).repo_ref;
    const response = await cloud.request("POST", "/v2/deployments", { body });
    expect(response.body.detail).toBe(
      "Source configuration error: 'source_revision_config.repo_ref' is required for 'codehost' source",
    );
  });

  it("accepts a tag without build_on_push and resolves its commit", async () => {
    const body = codehostBody(uniqueName("tagged"));
    body.source_revision_config.repo_ref = "refs/tags/v1.0.0";
    body.source_config.build_on_push = false;
    const response = await cloud.request("POST", "/v2/deployments", { body });
    expect(response.status).toBe(201);
    expect(response.body.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(response.body.source_revision_config.repo_commit_sha).not.toBe("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
  });

  it("accepts a repository of the managed integration", async () => {
    const body = codehostBody(uniqueName("managed"));
    body.source_config.integration_id = ids.managedIntegration;
    body.source_config.repo_url = "https://codehost.example/acme/onboarding-flow";
    body.source_revision_config.repo_ref = "develop";
    expect((await cloud.request("POST", "/v2/deployments", { body })).status).toBe(201);
  });
});

describe("source availability by hosting kind", () => {
  const cases = [
    { hosting: "cloud", source: "external_container", want: 400 },
    { hosting: "self_hosted", source: "codehost", want: 400 },
    { hosting: "self_hosted", source: "internal_container", want: 400 },
    { hosting: "self_hosted", source: "internal_source", want: 400 },
    { hosting: "self_hosted", source: "internal_template", want: 400 },
    { hosting: "self_hosted", source: "external_container", want: 201 },
    { hosting: "cloud", source: "internal_template", want: 201 },
  ];
  for (const { hosting, source, want } of cases) {
    it(`${source} on a ${hosting} server → ${want}`, async () => {
      const server = hosting === "cloud" ? cloud : selfHosted;
      const response = await server.request("POST", "/v2/deployments", { body: bodyFor(source, uniqueName("avail")) });
      expect(response.status).toBe(want);
      if (want === 400) expect(response.body.errors).toEqual([expect.objectContaining({ pointer: "/source" })]);
    });
  }
});

describe("schema validation (422)", () => {
  const cases: Array<{ given: string; body: unknown; pointer: string }> = [
    { given: "missing name", body: { ...bodyFor("internal_template", "x"), name: undefined }, pointer: "/name" },
    { given: "name with an underscore", body: bodyFor("internal_template", "bad_name"), pointer: "/name" },
    { given: "name starting with a digit", body: bodyFor("internal_template", "1abc"), pointer: "/name" },
    { given: "name of 64 characters", body: bodyFor("internal_template", "a".repeat(64)), pointer: "/name" },
    { given: "unknown source", body: { ...bodyFor("internal_template", "x"), source: "ftp" }, pointer: "/source" },
    {
      given: "secrets missing",
      body: { ...bodyFor("internal_template", "x"), secrets: undefined },
      pointer: "/secrets",
    },
    {
      given: "secret value a number",
      body: { ...bodyFor("internal_template", "x"), secrets: [{ name: "A", value: 1 }] },
      pointer: "/secrets/0/value",
    },
    {
      given: "integration_id not a uuid",
      body: codehostBody("x", { source_config: { integration_id: "abc" } }),
      pointer: "/source_config/integration_id",
    },
    {
      given: "cpu a string",
      body: { ...bodyFor("external_container", "x"), source_config: { resource_spec: { cpu: "1" } } },
      pointer: "/source_config/resource_spec/cpu",
    },
    {
      given: "negative memory",
      body: { ...bodyFor("external_container", "x"), source_config: { resource_spec: { memory_mb: -1 } } },
      pointer: "/source_config/resource_spec/memory_mb",
    },
    // D-133: upper bounds; D-134: relations, judged before the per-source rules (this server is cloud-hosted).
    ...[
      { field: "max_scale", spec: { max_scale: 2000000000 } },
      { field: "cpu", spec: { cpu: 1e308 } },
      { field: "cpu_limit", spec: { cpu_limit: 100000 } },
      { field: "memory_mb", spec: { memory_mb: 1048577 } },
      { field: "min_scale", spec: { min_scale: 5, max_scale: 1 } },
      { field: "cpu", spec: { cpu: 4, cpu_limit: 1 } },
      { field: "cache_memory_mb", spec: { cache_memory_mb: 2048, cache_memory_limit_mb: 1024 } },
    ].map(({ field, spec }) => ({
      given: `resource_spec ${JSON.stringify(spec)}`,
      body: { ...bodyFor("external_container", "x"), source_config: { resource_spec: spec } },
      pointer: `/source_config/resource_spec/${field}`,
    })),
    {
      given: "101 secrets",
      body: {
        ...bodyFor("internal_template", "x"),
        secrets: Array.from({ length: 101 }, (_, i) => ({ name: `S${i}`, value: "v" })),
      },
      pointer: "/secrets",
    },
    { given: "a body that is an array", body: [], pointer: "" },
  ];
  for (const { given, body, pointer } of cases) {
    it(given, async () => {
      const response = await cloud.request("POST", "/v2/deployments", { body });
      expect(response.status).toBe(422);
      expect(response.body.type).toBe("urn:deployment-service:problem:validation");
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    });
  }
});

describe("stored values", () => {
  it("ignores unknown and read-only fields and stores none of them", async () => {
    const name = uniqueName("extra");
    const body = {
      ...bodyFor("internal_template", name),
      id: "00000000-0000-4000-8000-000000000000",
      status: "READY",
      tenant_id: ids.globexProduction,
      surprise: "x",
      source_config: { retired_field: true },
      source_revision_config: { repo_commit_sha: "f".repeat(40) },
    };
    const response = await cloud.request("POST", "/v2/deployments", { body });
    expect(response.status).toBe(201);
    expect(response.body.id).not.toBe(body.id);
    expect(response.body.status).toBe("AWAITING_DATABASE");
    expect(response.body.tenant_id).toBe(ids.acmeProduction);
    expect(response.body.surprise).toBeUndefined();
    expect(response.body.source_config.retired_field).toBeUndefined();
    expect(response.body.source_revision_config.repo_commit_sha).toBeNull();
    const listed = await cloud.request("GET", `/v2/deployments?deployment_ids=${response.body.id}`);
    expect(JSON.stringify(listed.body)).not.toContain("retired_field");
  });

  it("rounds cpu to one decimal and defaults an unset limit to twice the request", async () => {
    const body = bodyFor("external_container", uniqueName("cpu")) as any;
    body.source_config.resource_spec = {
      cpu: 0.55,
      queue_cpu: 0.25,
      queue_cpu_limit: 1.04,
      db_cpu: 2,
      labels: { team: "a" },
      unknown_knob: 1,
    };
    const response = await selfHosted.request("POST", "/v2/deployments", { body });
    expect(response.status).toBe(201);
    expect(response.body.source_config.resource_spec).toEqual({
      cpu: 0.6,
      cpu_limit: 1.2,
      queue_cpu: 0.3,
      queue_cpu_limit: 1,
      db_cpu: 2,
      db_cpu_limit: 4,
      labels: { team: "a" },
    });
    const listed = await selfHosted.request("GET", `/v2/deployments?deployment_ids=${response.body.id}`);
    expect(listed.body.resources[0].source_config.resource_spec).toEqual(response.body.source_config.resource_spec);
  });

  it("sets image_version from the tag of image_uri, null without a tag", async () => {
    const cases = [
      { image: "registry.example:5000/team/agent:v2.1", want: "v2.1" },
      { image: "agent", want: null },
      { image: `registry.example/agent@sha256:${"a".repeat(64)}`, want: null },
    ];
    for (const { image, want } of cases) {
      const body = bodyFor("internal_container", uniqueName("img")) as any;
      body.source_revision_config.image_uri = image;
      const response = await cloud.request("POST", "/v2/deployments", { body });
      expect(response.status, image).toBe(201);
      expect(response.body.image_version, image).toBe(want);
    }
  });
});

describe("duplicate names (409)", () => {
  it("rejects a name taken in the tenant and accepts it in another tenant", async () => {
    const name = uniqueName("dup");
    expect((await cloud.request("POST", "/v2/deployments", { body: bodyFor("internal_template", name) })).status).toBe(
      201,
    );
    const again = await cloud.request("POST", "/v2/deployments", { body: bodyFor("internal_template", name) });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe("urn:deployment-service:problem:conflict");
    const staging = await cloud.request("POST", "/v2/deployments", {
      body: bodyFor("internal_template", name),
      tenant: ids.acmeStaging,
    });
    expect(staging.status).toBe(201);
  });

  it("50 concurrent creates of one name: exactly one 201, 49 409, one deployment and one tracing project", async () => {
    const name = uniqueName("race");
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        cloud.request("POST", "/v2/deployments", { body: bodyFor("internal_template", name) }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const listed = await cloud.request("GET", `/v2/deployments?name_contains=${name}&limit=100`);
    expect(listed.body.resources.filter((d: { name: string }) => d.name === name)).toHaveLength(1);
    const created = responses.find((r) => r.status === 201)?.body;
    expect((await inspectStore(cloud.store).getTracingProject(ids.acmeProduction, name))?.deploymentId).toBe(
      created.id,
    );
  });
});
