/** Graceful shutdown: SIGTERM finishes in-flight requests, then the process exits 0. */

import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startChildServer } from "./testing/child-server.js";
import { acmeKey } from "./testing/test-server.js";

describe("SIGTERM", () => {
  it("finishes a request that is in flight, then exits 0", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shutdown-"));
    const child = await startChildServer({ env: { DATA_DIR: dataDir } });
    const body = JSON.stringify({
      name: "in-flight",
      source: "internal_template",
      source_config: {},
      source_revision_config: {},
      secrets: [],
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${child.url}/v2/deployments`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          "X-Api-Key": acmeKey,
        },
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on("error", reject);
      // Half the body now, SIGTERM, the rest after: the request is in flight when the signal lands.
      request.write(body.slice(0, 20));
      setTimeout(() => {
        child.process.kill("SIGTERM");
        setTimeout(() => request.end(body.slice(20)), 300);
      }, 200);
    });
    const { status, text } = await answer;
    expect(status, text).toBe(201);
    expect(await child.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
