/**
 * The restart phase of the mutation run (D-360): what a client wrote is what it reads after the reference server
 * restarts on the same store, SQLite and PostgreSQL, as `npm start` starts it. No check of the suite can restart its
 * target, so this phase does, over HTTP: a start-up that fails, or forgets or changes a record, is a failed test.
 * It also reads the server's own /healthz (D-280), which is no part of the interface, so no check judges it.
 */
import { describe, expect, it } from "vitest";
import { demo, operation, requestExamples } from "../../contract/index.js";

const headers = { "X-Api-Key": demo.acme.apiKey, "Content-Type": "application/json" };

/** A deployment whose secret's name reads like a sealed value of the first format (`v1.`), which start-up reseals (D-320). */
const deployment = {
  name: "kept-across-restart",
  source: "internal_container",
  source_config: {},
  source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
  secrets: [{ name: "v1.a", value: "kept" }],
};

async function send(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe.each(["sqlite", "postgres"] as const)("a restart on %s", (database) => {
  it("starts again and answers every record as it was written, takes new writes, and answers /healthz ok", async () => {
    // loaded here, not with this file: a static mutant that throws while they load fails this test (D-360)
    const { referenceEnvironment, startReference } = await import("./targets.js");
    const where = referenceEnvironment("cloud", database);
    try {
      const first = await startReference(where.env);
      const created = await send(first.baseUrl, "POST", operation("createDeployment").path, deployment);
      const provider = requestExamples(operation("createOAuthProvider"))[0]!.value as Record<string, unknown>;
      const registered = await send(first.baseUrl, "POST", operation("createOAuthProvider").path, {
        ...provider,
        provider_id: "kept-across-restart",
      });
      expect([created.status, registered.status]).toEqual([201, 200]);
      // READY after 50 ms (targets.ts): read once nothing is still on its way, so that a restart has nothing left to move
      let before = await send(first.baseUrl, "GET", `${operation("listDeployments").path}?limit=100`);
      for (let tries = 0; tries < 100 && JSON.stringify(before.body).includes("AWAITING_DATABASE"); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        before = await send(first.baseUrl, "GET", `${operation("listDeployments").path}?limit=100`);
      }
      const providersBefore = await send(first.baseUrl, "GET", operation("listOAuthProviders").path);
      await first.close();

      const second = await startReference(where.env);
      try {
        const after = await send(second.baseUrl, "GET", `${operation("listDeployments").path}?limit=100`);
        const kept = after.body.resources.find((d: { id: string }) => d.id === created.body.id);
        expect(kept).toEqual(before.body.resources.find((d: { id: string }) => d.id === created.body.id));
        expect(after.body.resources.map((d: { id: string }) => d.id)).toEqual(
          before.body.resources.map((d: { id: string }) => d.id),
        );
        expect(await send(second.baseUrl, "GET", operation("listOAuthProviders").path)).toEqual(providersBefore);
        const next = await send(second.baseUrl, "POST", operation("createDeployment").path, {
          ...deployment,
          name: "made-after-restart",
        });
        expect(next.status).toBe(201);
        // a healthy store: 200 ok to GET, and HEAD is GET without the body (D-280, D-21)
        const health = await fetch(`${second.baseUrl}/healthz`);
        expect([health.status, health.headers.get("retry-after"), await health.json()]).toEqual([
          200,
          null,
          { status: "ok", database: "ok" },
        ]);
        const head = await fetch(`${second.baseUrl}/healthz`, { method: "HEAD" });
        expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([
          200,
          "application/json; charset=utf-8",
          "",
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await where.remove();
    }
  });
});
