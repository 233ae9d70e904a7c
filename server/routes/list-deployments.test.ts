/** Tests of operation 5 over HTTP: ordering, every filter and combinations, pagination walks, provisioning status, parameter validation. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyFor, ids } from "../testing/fixtures.js";
import { inspectStore } from "../testing/store-inspector.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";

let server: TestServer;
let selfHosted: TestServer;
/** Created names, oldest first, in the Acme staging tenant (kept apart from other tests). */
const created: Array<{ id: string; name: string }> = [];
const tenant = ids.acmeStaging;

beforeAll(async () => {
  [server, selfHosted] = await Promise.all([
    startTestServer(),
    startTestServer({ hosting: "self_hosted", readyAfterMs: 300 }),
  ]);
  const names = ["alpha-one", "Alpha-Two", "beta-one", "gamma-x", "alphabet", "delta", "epsilon", "zeta-ALPHA"];
  for (const name of names) {
    const response = await server.request("POST", "/v2/deployments", {
      body: bodyFor("internal_template", name),
      tenant,
    });
    expect(response.status).toBe(201);
    created.push({ id: response.body.id, name });
  }
});
afterAll(async () => {
  await Promise.all([server?.close(), selfHosted?.close()]);
});

const list = async (query: string, target = server, tenantId: string | null = tenant) => {
  const response = await target.request("GET", `/v2/deployments${query}`, tenantId ? { tenant: tenantId } : {});
  expect(response.status, response.text).toBe(200);
  return response.body as {
    resources: Array<{ id: string; name: string; created_at: string; status: string }>;
    offset: number;
  };
};
const names = (page: { resources: Array<{ name: string }> }) => page.resources.map((d) => d.name);
const newestFirst = () => [...created].reverse().map((d) => d.name);

describe("ordering and pagination", () => {
  it("lists newest first with created_at strictly decreasing", async () => {
    const page = await list("");
    expect(names(page)).toEqual(newestFirst());
    const times = page.resources.map((d) => Date.parse(d.created_at.replace(/(\.\d{3})\d+Z$/, "$1Z")));
    for (let i = 1; i < page.resources.length; i++) {
      expect(page.resources[i - 1]!.created_at > page.resources[i]!.created_at).toBe(true);
      expect(times[i - 1]!).toBeGreaterThanOrEqual(times[i]!);
    }
    expect(page.offset).toBe(created.length);
  });

  it("walks pages of every size and sees each deployment exactly once", async () => {
    for (const limit of [1, 2, 3, 5, 8, 100]) {
      const seen: string[] = [];
      let offset = 0;
      for (let guard = 0; guard < 20; guard++) {
        const page = await list(`?limit=${limit}&offset=${offset}`);
        seen.push(...names(page));
        expect(page.offset).toBe(offset + page.resources.length);
        if (page.resources.length < limit) break;
        offset = page.offset;
      }
      expect(seen, `limit ${limit}`).toEqual(newestFirst());
    }
  });

  it("past the end: no resources and the same offset", async () => {
    const page = await list("?offset=50");
    expect(page).toEqual({ resources: [], offset: 50 });
  });

  it("defaults limit to 20", async () => {
    const many = await startTestServer();
    try {
      for (let i = 0; i < 25; i++)
        await many.request("POST", "/v2/deployments", { body: bodyFor("internal_template", `many-${i}`) });
      const page = await list("", many, null);
      expect(page.resources).toHaveLength(20);
      expect(page.offset).toBe(20);
      const rest = await list("?offset=20", many, null);
      expect(names(rest)).toEqual(["many-4", "many-3", "many-2", "many-1", "many-0"]);
    } finally {
      await many.close();
    }
  });
});

describe("filters", () => {
  const cases: Array<{ query: string; want: (all: string[]) => string[] }> = [
    { query: "?name_contains=alpha", want: (all) => all.filter((n) => n.toLowerCase().includes("alpha")) },
    { query: "?name_contains=ALPHA-t", want: () => ["Alpha-Two"] },
    { query: "?name_contains=%25", want: () => [] },
    { query: "?name_contains=_", want: () => [] },
    { query: "?name_contains=", want: (all) => all },
    { query: "?status=AWAITING_DATABASE", want: (all) => all },
    { query: "?status=READY", want: () => [] },
    { query: "?status=READY,UNUSED,AWAITING_DATABASE", want: (all) => all },
    { query: "?status=UNKNOWN&status=UNUSED", want: () => [] },
    { query: "?remote_reconciled=false", want: (all) => all },
    { query: "?remote_reconciled=true", want: () => [] },
    { query: "?deployment_type=dev", want: (all) => all },
    { query: "?deployment_type=prod", want: () => [] },
    { query: "?deployment_type=dev_free", want: () => [] },
    { query: "?tag_value_ids=0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7", want: () => [] },
    { query: "?image_version=1.0", want: () => [] },
    {
      query: "?name_contains=alpha&status=AWAITING_DATABASE&deployment_type=dev&remote_reconciled=false",
      want: (all) => all.filter((n) => n.toLowerCase().includes("alpha")),
    },
    { query: "?name_contains=alpha&deployment_type=prod", want: () => [] },
  ];
  for (const { query, want } of cases) {
    it(query, async () => {
      expect(names(await list(`${query}${query.includes("?") ? "&" : "?"}limit=100`))).toEqual(want(newestFirst()));
    });
  }

  it("deployment_ids selects exactly those ids, newest first", async () => {
    const chosen = [created[1]!, created[4]!, created[6]!];
    const page = await list(`?deployment_ids=${chosen.map((d) => d.id).join(",")}`);
    expect(names(page)).toEqual([created[6]!.name, created[4]!.name, created[1]!.name]);
    const upper = await list(`?deployment_ids=${chosen[0]!.id.toUpperCase()}`);
    expect(names(upper)).toEqual([chosen[0]!.name]);
  });

  it("deployment_ids of another tenant match nothing", async () => {
    const page = await list(`?deployment_ids=${created[0]!.id}`, server, ids.acmeProduction);
    expect(page.resources).toEqual([]);
    const globex = await server.request("GET", `/v2/deployments?deployment_ids=${created[0]!.id}`, {
      key: "dk_demo_globex_8a1c3e5f7b9d2f4a6c8e",
    });
    expect(globex.body.resources).toEqual([]);
  });

  it("filtered pages walk with the returned offset", async () => {
    const seen: string[] = [];
    let offset = 0;
    for (let guard = 0; guard < 10; guard++) {
      const page = await list(`?name_contains=a&limit=2&offset=${offset}`);
      seen.push(...names(page));
      if (page.resources.length < 2) break;
      offset = page.offset;
    }
    expect(seen).toEqual(newestFirst().filter((n) => n.toLowerCase().includes("a")));
  });

  it("image_version and remote_reconciled on external_container deployments", async () => {
    const make = async (name: string, image: string, listener: string | null) => {
      const body = bodyFor("external_container", name) as any;
      body.source_revision_config.image_uri = image;
      body.source_config.listener_id = listener;
      const response = await selfHosted.request("POST", "/v2/deployments", { body });
      expect(response.status, response.text).toBe(201);
    };
    await make("img-a", "registry.example/a:1.0.0", null);
    await make("img-b", "registry.example/b:1.0.0", "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7");
    await make("img-c", "registry.example/c:2.0.0", "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7");
    expect(names(await list("?image_version=1.0.0", selfHosted, null))).toEqual(["img-b", "img-a"]);
    expect(names(await list("?image_version=1.0", selfHosted, null))).toEqual([]);
    expect(names(await list("?remote_reconciled=true", selfHosted, null))).toEqual(["img-c", "img-b"]);
    expect(names(await list("?remote_reconciled=false&image_version=1.0.0", selfHosted, null))).toEqual(["img-a"]);
  });
});

describe("provisioning", () => {
  it("moves from AWAITING_DATABASE to READY with active_revision_id after READY_AFTER_MS", async () => {
    const response = await selfHosted.request("POST", "/v2/deployments", {
      body: bodyFor("external_container", "provisioned"),
    });
    expect(response.body.status).toBe("AWAITING_DATABASE");
    const id = response.body.id;
    let deployment = response.body;
    for (let i = 0; i < 50 && deployment.status !== "READY"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      deployment = (await list(`?deployment_ids=${id}`, selfHosted, null)).resources[0];
    }
    expect(deployment.status).toBe("READY");
    expect((deployment as any).active_revision_id).toBe(response.body.latest_revision_id);
    expect(names(await list(`?status=READY&deployment_ids=${id}`, selfHosted, null))).toEqual(["provisioned"]);
    expect(names(await list(`?status=AWAITING_DATABASE&deployment_ids=${id}`, selfHosted, null))).toEqual([]);
    // The sweep writes the state down; the revision is deployed.
    for (let i = 0; i < 30; i++) {
      // As stored (time 0): DEPLOYED only once the sweep has written it.
      const revisions = await inspectStore(selfHosted.store).listRevisions(ids.acmeProduction, id, 0);
      if (revisions[0]?.status === "DEPLOYED") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await inspectStore(selfHosted.store).listRevisions(ids.acmeProduction, id, 0))[0]?.status).toBe("DEPLOYED");
  });
});

describe("parameter validation (422 naming the parameter)", () => {
  const cases = [
    { query: "?limit=0", parameter: "limit" },
    { query: "?limit=101", parameter: "limit" },
    { query: "?limit=abc", parameter: "limit" },
    { query: "?limit=1.5", parameter: "limit" },
    { query: "?limit=", parameter: "limit" },
    { query: "?limit=0x10", parameter: "limit" },
    { query: "?limit=%205", parameter: "limit" },
    { query: "?offset=1e1", parameter: "offset" },
    { query: "?limit=1&limit=2", parameter: "limit" },
    { query: "?offset=-1", parameter: "offset" },
    { query: "?offset=99999999999", parameter: "offset" },
    { query: "?status=DONE", parameter: "status" },
    { query: "?status=READY,", parameter: "status" },
    { query: "?remote_reconciled=maybe", parameter: "remote_reconciled" },
    { query: "?deployment_type=free", parameter: "deployment_type" },
    { query: "?deployment_ids=not-a-uuid", parameter: "deployment_ids" },
    { query: "?deployment_ids=urn:uuid:0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7", parameter: "deployment_ids" },
    { query: "?deployment_ids=%7B0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7%7D", parameter: "deployment_ids" },
    { query: "?tag_value_ids=1,2", parameter: "tag_value_ids" },
  ];
  for (const { query, parameter } of cases) {
    it(query, async () => {
      const response = await server.request("GET", `/v2/deployments${query}`);
      expect(response.status).toBe(422);
      expect(response.body.type).toBe("urn:deployment-service:problem:validation");
      expect(response.body.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    });
  }

  it("refuses a query parameter the operation does not declare, naming it (D-310)", async () => {
    const response = await server.request("GET", "/v2/deployments?colour=blue");
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ parameter: "colour", detail: "is not a parameter of this operation" }]);
  });

  // A query record with a prototype took `__proto__` as a setter (ignored, 200) and read `constructor` as inherited.
  for (const name of ["__proto__", "constructor", "hasOwnProperty", "toString", "valueOf"]) {
    it(`refuses ${name} as a query name like any other undeclared one (D-412)`, async () => {
      const response = await server.request("GET", `/v2/deployments?${name}=1`);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ parameter: name, detail: "is not a parameter of this operation" }]);
    });
  }
});

describe("large pages (pooled send buffers, D-92)", () => {
  it("answers concurrent large pages each with its own deployments", async () => {
    const tenantId = ids.acmeProduction;
    for (let i = 0; i < 60; i++) {
      const response = await server.request("POST", "/v2/deployments", {
        body: bodyFor("internal_template", `large-page-${i}`),
        tenant: tenantId,
      });
      expect(response.status).toBe(201);
    }
    const queries = Array.from({ length: 12 }, (_, i) => `?limit=40&offset=${i}&name_contains=large-page`);
    const oneByOne: string[] = [];
    for (const query of queries) oneByOne.push(names(await list(query, server, tenantId)).join());
    const atOnce = await Promise.all(queries.map((query) => list(query, server, tenantId)));
    expect(atOnce.map((page) => names(page).join())).toEqual(oneByOne);
    // Each page is large enough to be sent from a pooled buffer.
    expect(JSON.stringify(atOnce[0]).length).toBeGreaterThan(16 * 1024);
  });
});
