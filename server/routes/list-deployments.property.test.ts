/** Property test of operation 5 (D-08, D-09, D-39 to D-45): for random filter combinations and page sizes, walking the pages yields exactly the matching deployments, newest first, each once. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.js";

interface Made {
  id: string;
  name: string;
  imageVersion: string;
  remote: boolean;
}

let server: TestServer;
/** Oldest first. */
const made: Made[] = [];
const listener = "0e5c2f3a-6b7d-4c8e-9f01-a2b3c4d5e6f7";
const stems = ["alpha", "beta", "Gamma", "delta-x"];
const versions = ["1.0.0", "2.0.0", "latest"];

beforeAll(async () => {
  server = await startTestServer({ hosting: "self_hosted" });
  for (let i = 0; i < 24; i++) {
    const name = `${stems[i % stems.length]}-${i}`;
    const imageVersion = versions[i % versions.length] as string;
    const remote = i % 5 < 2;
    const response = await server.request("POST", "/v2/deployments", {
      body: {
        name,
        source: "external_container",
        source_config: remote ? { listener_id: listener } : {},
        source_revision_config: { image_uri: `registry.example/app:${imageVersion}` },
        secrets: [],
      },
    });
    expect(response.status, response.text).toBe(201);
    made.push({ id: response.body.id, name, imageVersion, remote });
  }
});
afterAll(async () => {
  await server?.close();
});

const filters = fc.record(
  {
    name_contains: fc.constantFrom("a", "ALPHA", "-1", "x", "zzz", "Gam"),
    image_version: fc.constantFrom(...versions, "9.9"),
    remote_reconciled: fc.boolean(),
    status: fc.constantFrom("AWAITING_DATABASE", "READY", "READY,AWAITING_DATABASE", "UNUSED"),
    deployment_type: fc.constantFrom("dev", "prod", "dev_free"),
    deployment_ids: fc.subarray([...Array(24).keys()], { minLength: 1, maxLength: 6 }),
    tag_value_ids: fc.constant("3c4d5e6f-7081-4a2b-9c3d-4e5f60718293"),
  },
  { requiredKeys: [] },
);

/** What the profile says a filter combination matches (all AWAITING_DATABASE: READY_AFTER_MS is long here). */
function expected(f: Record<string, unknown>): string[] {
  return [...made]
    .reverse()
    .filter(
      (d) => f.name_contains === undefined || d.name.toLowerCase().includes(String(f.name_contains).toLowerCase()),
    )
    .filter((d) => f.image_version === undefined || d.imageVersion === f.image_version)
    .filter((d) => f.remote_reconciled === undefined || d.remote === f.remote_reconciled)
    .filter(() => f.status === undefined || String(f.status).split(",").includes("AWAITING_DATABASE"))
    .filter(() => f.deployment_type === undefined || f.deployment_type === "dev")
    .filter((d) => f.deployment_ids === undefined || (f.deployment_ids as number[]).some((i) => made[i]!.id === d.id))
    .filter(() => f.tag_value_ids === undefined)
    .map((d) => d.name);
}

describe("list deployments: filters and pagination (property)", () => {
  it("every walk yields exactly the matching deployments, newest first, each once", async () => {
    await fc.assert(
      fc.asyncProperty(filters, fc.integer({ min: 1, max: 10 }), async (f, limit) => {
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(f)) {
          params.set(
            key,
            key === "deployment_ids" ? (value as number[]).map((i) => made[i]!.id).join(",") : String(value),
          );
        }
        const seen: string[] = [];
        let offset = 0;
        for (let page = 0; page < 30; page++) {
          params.set("limit", String(limit));
          params.set("offset", String(offset));
          const response = await server.request("GET", `/v2/deployments?${params}`);
          expect(response.status, response.text).toBe(200);
          seen.push(...response.body.resources.map((d: { name: string }) => d.name));
          expect(response.body.offset).toBe(offset + response.body.resources.length);
          if (response.body.resources.length < limit) break;
          offset = response.body.offset;
        }
        expect(seen).toEqual(expected(f));
      }),
      { numRuns: 60 },
    );
  });
});
