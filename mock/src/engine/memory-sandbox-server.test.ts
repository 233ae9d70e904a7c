/** Every path of the in-memory sandbox answers (D-271): a malformed session id is a 400 problem, a failing handler or state-file write a 500, and the process lives on. */

import pino from "pino";
import { describe, expect, it } from "vitest";
import { listen } from "../../../common/listen.js";
import { bodyFor } from "../../../server/testing/fixtures.js";
import { startedBeforeAll } from "../../../server/testing/started-before-all.js";
import { createFetchHttpServer } from "./fetch-http-server.js";
import { createMemorySandbox } from "./memory-sandbox.js";
import { startMemorySandbox } from "./memory-sandbox-server.js";

let sandbox: Awaited<ReturnType<typeof startMemorySandbox>>;
startedBeforeAll(async () => {
  sandbox = await startMemorySandbox();
  return sandbox;
});

describe("in-memory sandbox on a port", () => {
  it.each([
    ["DELETE", "/__mock/sessions/%E0%A4%A", 400],
    ["DELETE", "/__mock/sessions/%", 400],
    ["DELETE", "/__mock/sessions/ok-id", 204],
    ["GET", "/__mock/sessions/%E0%A4%A", 404],
    ["GET", "/v2/deployments/%E0%A4%A", 404],
  ])("%s %s answers %i, and the sandbox answers the next request", async (method, path, status) => {
    const response = await fetch(`${sandbox.url}${path}`, { method, headers: { "X-Api-Key": "k" } });
    expect(response.status).toBe(status);
    if (status >= 400) expect(response.headers.get("content-type")).toBe("application/problem+json");
    const next = await fetch(`${sandbox.url}/v2/auth/providers`, { headers: { "X-Api-Key": "k" } });
    expect(next.status).toBe(200);
  });

  it("answers 500 when the handler fails, and keeps serving", async () => {
    let fail = true;
    const server = createFetchHttpServer(
      async () => {
        if (fail) throw new Error("boom");
        return new Response("fine");
      },
      pino({ level: "silent" }),
    );
    const running = await listen(server, 0, "127.0.0.1");
    try {
      const failed = await fetch(running.url);
      expect(failed.status).toBe(500);
      // a problem as the pipeline's are (D-16, D-271): its type, status and a detail that says something
      expect(failed.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await failed.json()) as { status: number; type: string; detail: string };
      expect(problem).toMatchObject({ status: 500, type: "urn:deployment-service:problem:internal" });
      expect(problem.detail).toMatch(/\w/);
      fail = false;
      expect(await (await fetch(running.url)).text()).toBe("fine");
    } finally {
      await running.close();
    }
  });
});

describe("in-memory sandbox in-process", () => {
  it("answers a write whose state-file save fails with a 500 problem, never a rejection or a 429", async () => {
    const sandbox = createMemorySandbox({
      onChange: () => {
        throw new Error("ENOSPC: no space left on device");
      },
    });
    const failed = await sandbox.handle(
      new Request("http://sandbox.test/v2/deployments", {
        method: "POST",
        headers: { "X-Api-Key": "k", "Content-Type": "application/json" },
        body: JSON.stringify(bodyFor("internal_container", "unsaved")),
      }),
    );
    expect(failed.status).toBe(500);
    expect(failed.headers.get("retry-after")).toBeNull();
    const problem = (await failed.json()) as { status: number; type: string; detail: string };
    expect(problem).toMatchObject({ status: 500, type: "urn:deployment-service:problem:internal" });
    expect(problem.detail).toMatch(/\w/);
  });
});
