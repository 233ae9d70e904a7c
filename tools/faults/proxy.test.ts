/** Tests of the fault proxy: transparent without a fault, and each kind of rewrite applied. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faults } from "./catalog.js";
import { type Fault, startFaultProxy } from "./proxy.js";

let upstream: Server;
let upstreamUrl: string;
const seen: { method: string; url: string; body: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks);
      seen.push({ method: req.method ?? "", url: req.url ?? "", body: bytes.toString(), bytes });
      if (req.url?.startsWith("/v2/deployments") && req.method === "GET") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            resources: [
              { id: "a", name: "x", status: "READY", tenant_id: "t" },
              { id: "b", name: "y", status: "READY", tenant_id: "t" },
            ],
            offset: 2,
          }),
        );
      } else {
        res.writeHead(401, { "content-type": "application/problem+json" });
        res.end(
          JSON.stringify({
            type: "urn:deployment-service:problem:unauthenticated",
            title: "Unauthenticated",
            status: 401,
            detail: "no key",
          }),
        );
      }
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

async function through(fault: Fault | undefined, path: string, init?: RequestInit) {
  const proxy = await startFaultProxy(upstreamUrl, fault);
  try {
    const res = await fetch(`${proxy.url}${path}`, init);
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      date: res.headers.get("date"),
      body: await res.text(),
    };
  } finally {
    await proxy.close();
  }
}

const byId = (id: string) => faults.find((f) => f.id === id)!;

describe("fault proxy", () => {
  it("is transparent without a fault", async () => {
    const got = await through(undefined, "/v2/deployments?limit=2&name_contains=x");
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body).offset).toBe(2);
    expect(seen.at(-1)!.url).toBe("/v2/deployments?limit=2&name_contains=x");
  });

  it("forwards a body as sent, even one that parsing would change, unless the fault rewrites it", async () => {
    const body = '{"n": 1e400, "big": 9007199254740993}';
    const post = { method: "POST", body, headers: { "content-type": "application/json" } };
    await through(undefined, "/v2/deployments", post);
    expect(seen.at(-1)!.body).toBe(body);
    await through(byId("body-parsed-lossily"), "/v2/deployments", post);
    expect(seen.at(-1)!.body).toBe('{"n":null,"big":9007199254740992}');
  });

  it("forwards bytes that are not UTF-8 as sent, unless the fault decodes them", async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const post = { method: "POST", body: bytes, headers: { "content-type": "application/json" } };
    await through(undefined, "/v2/oauth-providers", post);
    expect(seen.at(-1)!.bytes).toEqual(bytes);
    await through(byId("body-decoded-leniently"), "/v2/oauth-providers", post);
    expect(seen.at(-1)!.body).toBe('{"n":"\uFFFD"}');
  });

  const cases: {
    fault: string;
    path: string;
    want: (got: { status: number; type: string | null; body: string }) => void;
  }[] = [
    {
      fault: "ignored-name-contains",
      path: "/v2/deployments?name_contains=x&limit=2",
      want: () => expect(seen.at(-1)!.url).toBe("/v2/deployments?limit=2"),
    },
    {
      fault: "limit-zero-accepted",
      path: "/v2/deployments?limit=0",
      want: () => expect(seen.at(-1)!.url).toBe("/v2/deployments?limit=1"),
    },
    { fault: "off-by-one-offset", path: "/v2/deployments", want: (g) => expect(JSON.parse(g.body).offset).toBe(1) },
    {
      fault: "unknown-status-value",
      path: "/v2/deployments",
      want: (g) => expect(JSON.parse(g.body).resources[0].status).toBe("RUNNING"),
    },
    {
      fault: "missing-tenant-id",
      path: "/v2/deployments",
      want: (g) => expect("tenant_id" in JSON.parse(g.body).resources[0]).toBe(false),
    },
    {
      fault: "oldest-first-deployments",
      path: "/v2/deployments",
      want: (g) => expect(JSON.parse(g.body).resources.map((r: { id: string }) => r.id)).toEqual(["b", "a"]),
    },
    {
      fault: "missing-key-accepted",
      path: "/v2/auth/providers",
      want: (g) => expect([g.status, g.body]).toEqual([200, "[]"]),
    },
    {
      fault: "text-plain-errors",
      path: "/v2/auth/providers",
      want: (g) => expect([g.status, g.type]).toEqual([401, "text/plain; charset=utf-8"]),
    },
  ];
  for (const c of cases) it(c.fault, async () => c.want(await through(byId(c.fault), c.path)));

  it("answers directly when a fault says so", async () => {
    const got = await through(byId("server-error-on-missing-secrets"), "/v2/deployments", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "n" }),
    });
    expect(got.status).toBe(500);
  });

  it("has at least 20 faults with unique ids, each MUST or SHOULD", () => {
    expect(faults.length).toBeGreaterThanOrEqual(20);
    expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
    for (const f of faults) expect(["MUST", "SHOULD"]).toContain(f.level);
  });
});

describe("the Date of an answer", () => {
  const withoutDate: Fault = { id: "t-no-date", level: "SHOULD", description: "drops Date", dated: false };
  const answering: Fault = {
    id: "t-answers",
    level: "SHOULD",
    description: "answers itself",
    request: () => ({ status: 204, headers: {}, body: "" }),
  };
  it.each([
    { given: "no fault: the upstream's Date", fault: undefined, want: true },
    { given: "a fault whose answers are undated", fault: withoutDate, want: false },
    { given: "a fault's own answer, dated by the proxy", fault: answering, want: true },
  ])("$given", async ({ fault, want }) => {
    const { date } = await through(fault, "/v2/deployments");
    expect(date !== null).toBe(want);
  });
});
