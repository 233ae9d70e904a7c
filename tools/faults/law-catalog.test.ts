/** Each law fault rewrites what it says, on requests and answers built by hand (the fault run proves each is caught). */
import { describe, expect, it } from "vitest";
import { demo } from "../../contract/index.js";
import { faults } from "./catalog.js";
import { lawFaults } from "./law-catalog.js";
import { propertyFaults } from "./property-catalog.js";
import type { Fault, ProxyRequest, ProxyResponse } from "./proxy.js";
import { subtleFaults } from "./subtle-catalog.js";

const fault = (id: string): Fault => lawFaults.find((f) => f.id === id)!;
const request = (
  method: string,
  target: string,
  headers: Record<string, string> = {},
  json?: unknown,
): ProxyRequest => ({
  method,
  url: new URL(target, "http://proxy.invalid"),
  target,
  headers: { "x-api-key": demo.acme.apiKey, ...headers },
  rawHeaderNames: [],
  body: json === undefined ? "" : JSON.stringify(json),
  rawBody: Buffer.from(json === undefined ? "" : JSON.stringify(json)),
  json,
  connection: {},
});
const answer = (body: unknown, status = 200): ProxyResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const upstream = async () => answer({});
const at = "2026-11-27T18:00:00.123456Z";
const record = (id: string) => ({ id, name: `n-${id}`, created_at: at, updated_at: at });

describe("law faults", () => {
  it("have ids no other catalog uses", () => {
    const ids = [...faults, ...subtleFaults, ...propertyFaults, ...lawFaults].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("commands-of-previous-create: a create without install_command, and its listing, show the one before it", async () => {
    const carried = fault("commands-of-previous-create");
    const respond = (req: ProxyRequest, res: ProxyResponse) =>
      carried.response!(req, res, upstream) as ProxyResponse | undefined;
    const first = { ...record("a"), source_config: { install_command: "npm ci" } };
    const second = { ...record("b"), source_config: {} };
    expect(respond(request("POST", "/v2/deployments", {}, { name: "a" }), answer(first, 201))).toBeDefined();
    const created = respond(request("POST", "/v2/deployments", {}, { name: "b" }), answer(second, 201));
    expect(JSON.parse(created!.body).source_config).toEqual({ install_command: "npm ci" });
    const listed = respond(request("GET", "/v2/deployments"), answer({ resources: [second, first], offset: 2 }));
    const commands = JSON.parse(listed!.body).resources.map(
      (d: { source_config: { install_command?: string } }) => d.source_config.install_command,
    );
    expect(commands).toEqual(["npm ci", "npm ci"]);
  });

  it.each([
    {
      given: "repeated-deployment-id-answered-twice, deployment_ids=a,b,a",
      id: "repeated-deployment-id-answered-twice",
      req: request("GET", "/v2/deployments?deployment_ids=a,b,a"),
      res: answer({ resources: [record("a"), record("b")], offset: 2 }),
      want: (body: { resources: { id: string }[] }) => body.resources.map((r) => r.id),
      expected: ["a", "a", "b"],
    },
    {
      given: "skewed-clock-created-at on a create answer",
      id: "skewed-clock-created-at",
      req: request("POST", "/v2/deployments", {}, { name: "n" }),
      res: answer(record("a"), 201),
      want: (body: { created_at: string; updated_at: string }) => [body.created_at, body.updated_at],
      expected: ["2026-11-27T17:50:00.123456Z", at],
    },
    {
      given: "provider-timestamps-in-milliseconds on the providers list",
      id: "provider-timestamps-in-milliseconds",
      req: request("GET", "/v2/auth/providers"),
      res: answer([record("p")]),
      want: (body: { created_at: string }[]) => body.map((p) => p.created_at),
      expected: ["2026-11-27T18:00:00.123Z"],
    },
    {
      given: "repeated-status-listed-twice, status=READY,AWAITING_DATABASE,READY",
      id: "repeated-status-listed-twice",
      req: request("GET", "/v2/deployments?status=READY,AWAITING_DATABASE,READY"),
      res: answer({ resources: [{ ...record("a"), status: "READY" }, record("b")], offset: 2 }),
      want: (body: { resources: { id: string }[] }) => body.resources.map((r) => r.id),
      expected: ["a", "a", "b"],
    },
    {
      given: "ids-and-statuses-joined-twice, deployment_ids beside two statuses",
      id: "ids-and-statuses-joined-twice",
      req: request("GET", "/v2/deployments?deployment_ids=a&status=READY,UNKNOWN"),
      res: answer({ resources: [record("a")], offset: 1 }),
      want: (body: { resources: { id: string }[] }) => body.resources.map((r) => r.id),
      expected: ["a", "a"],
    },
    {
      given: "ready-updated-at-ahead on a READY deployment of a list",
      id: "ready-updated-at-ahead",
      req: request("GET", "/v2/deployments"),
      res: answer({ resources: [{ ...record("a"), status: "READY" }, record("b")], offset: 2 }),
      want: (body: { resources: { updated_at: string }[] }) => body.resources.map((r) => r.updated_at),
      expected: ["2026-11-27T19:00:00.123Z", at],
    },
  ])("$given", async ({ id, req, res, want, expected }) => {
    const rewritten = await fault(id).response!(req, res, upstream);
    expect(want(JSON.parse(rewritten!.body))).toEqual(expected);
  });

  it("percent-encoded-names-ignored drops a parameter whose name is percent-encoded, keeps the others", () => {
    const req = request("GET", "/v2/deployments?%6C%69%6D%69%74=2&offset=1&name_contains=a%20b");
    fault("percent-encoded-names-ignored").request!(req);
    expect([...req.url.searchParams]).toEqual([
      ["offset", "1"],
      ["name_contains", "a b"],
    ]);
  });

  it.each([
    {
      id: "name-contains-dropped-with-deployment-type",
      given: "/v2/deployments?name_contains=a&deployment_type=dev&limit=3",
      want: [
        ["deployment_type", "dev"],
        ["limit", "3"],
      ],
    },
    {
      id: "name-contains-dropped-with-deployment-type",
      given: "/v2/deployments?name_contains=a&limit=3",
      want: [
        ["name_contains", "a"],
        ["limit", "3"],
      ],
    },
    {
      id: "deployment-ids-dropped-with-remote-reconciled",
      given: "/v2/deployments?deployment_ids=x&remote_reconciled=true",
      want: [["remote_reconciled", "true"]],
    },
  ])("$id sends $given on as $want", ({ id, given, want }) => {
    const req = request("GET", given);
    fault(id).request!(req);
    expect([...req.url.searchParams]).toEqual(want);
  });

  it("accept-with-q-values-406 answers 406 only to a keyed request whose Accept has a q-value", () => {
    const f = fault("accept-with-q-values-406");
    expect(
      f.request!(request("GET", "/v2/auth/providers", { accept: "application/json;q=0.9, */*;q=0.1" }))?.status,
    ).toBe(406);
    expect(f.request!(request("GET", "/v2/auth/providers", { accept: "application/json" }))).toBeUndefined();
    expect(f.request!(request("GET", "/v2/auth/providers", { accept: "*/*;q=0.1", "x-api-key": "" }))).toBeUndefined();
  });

  it("spurious-conflict-under-concurrency refuses a create of another name only while one is in flight", async () => {
    const f = fault("spurious-conflict-under-concurrency");
    const first = request("POST", "/v2/deployments", {}, { name: "a" });
    expect(f.request!(first)).toBeUndefined();
    expect(f.request!(request("POST", "/v2/deployments", {}, { name: "b" }))?.status).toBe(409);
    await f.response!(first, answer(record("a"), 201), upstream);
    expect(f.request!(request("POST", "/v2/deployments", {}, { name: "c" }))).toBeUndefined();
  });

  it("deployment-ids-counted-per-tenant answers the first create of another tenant with the first tenant's first id, and keeps that tenant's reads consistent", async () => {
    const f = fault("deployment-ids-counted-per-tenant");
    const other = { "x-tenant-id": demo.acme.stagingTenantId };
    const create = async (headers: Record<string, string>, id: string) =>
      JSON.parse(
        (await f.response!(request("POST", "/v2/deployments", headers, {}), answer(record(id), 201), upstream))?.body ??
          "{}",
      ).id;
    expect(await create({}, "a")).toBe("a");
    expect(await create(other, "b")).toBe("a");
    expect(await create(other, "c")).toBe("c");
    const byId = request("GET", "/v2/deployments?deployment_ids=a", other);
    f.request!(byId);
    expect(byId.url.searchParams.get("deployment_ids")).toBe("b");
    const listed = await f.response!(byId, answer({ resources: [record("b")], offset: 1 }), upstream);
    expect(JSON.parse(listed!.body).resources.map((r: { id: string }) => r.id)).toEqual(["a"]);
  });

  it("last-modified-unchanged-after-create stamps keyed list answers and answers 304 to If-Modified-Since with that stamp", async () => {
    const f = fault("last-modified-unchanged-after-create");
    const stamped = await f.response!(
      request("GET", "/v2/deployments"),
      answer({ resources: [], offset: 0 }),
      upstream,
    );
    const since = stamped!.headers["last-modified"]!;
    expect(f.request!(request("GET", "/v2/auth/providers", { "if-modified-since": since }))?.status).toBe(304);
    expect(
      f.request!(request("GET", "/v2/auth/providers", { "if-modified-since": "Mon, 01 Jan 2001 00:00:00 GMT" })),
    ).toBeUndefined();
  });

  it.each([
    { given: "create-upserts-by-name", answered: 201 },
    { given: "refused-create-still-written", answered: 409 },
  ])(
    "$given answers a create of a held name $answered, and lists the held record with what it sent",
    async ({ given, answered }) => {
      const f = fault(given);
      const held = { ...record("a"), source: "internal_template", source_config: {} };
      await f.response!(request("POST", "/v2/deployments", {}, { name: "n-a" }), answer(held, 201), upstream);
      const rival = { name: "n-a", source: "internal_source", source_config: { build_command: "make" }, secrets: [] };
      const conflict = answer({ status: 409 }, 409);
      const second = (await f.response!(request("POST", "/v2/deployments", {}, rival), conflict, upstream)) ?? conflict;
      expect(second.status).toBe(answered);
      if (answered === 201) expect(JSON.parse(second.body).id).toBe("a");
      const listed = await f.response!(
        request("GET", "/v2/deployments?deployment_ids=a"),
        answer({ resources: [held], offset: 1 }),
        upstream,
      );
      expect(JSON.parse(listed!.body).resources[0]).toMatchObject({ id: "a", source: "internal_source" });
    },
  );
});
