/** D-350 in the fetch adapter: a heavy page is a web stream read a part at a time, and its slot is freed however the reader ends. */
import { randomBytes } from "node:crypto";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { demo, demoFixturePath } from "../../contract/index.js";
import { authenticate } from "../auth/authenticate.js";
import { FixtureCodehost } from "../codehost/fixture-adapter.js";
import { loadConfig } from "../config.js";
import { SecretBox } from "../crypto/secret-box.js";
import { seedDemo } from "../demo.js";
import { nowMicros } from "../domain/clock.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import { createFetchApp, type FetchHandler } from "./fetch-adapter.js";

let app: FetchHandler;
const base = "http://sandbox.test";
const get = (method = "GET") =>
  app(new Request(`${base}/v2/deployments?limit=100`, { method, headers: { "x-api-key": demo.acme.apiKey } }));

beforeAll(async () => {
  const logger = pino({ level: "silent" });
  const store = new SqliteStore({ renderer: deploymentRenderer, path: ":memory:" });
  await store.migrate();
  await seedDemo(store, logger);
  app = createFetchApp({
    config: { ...loadConfig({}), demo: true, hosting: "self_hosted", validateResponses: false },
    store,
    codehost: FixtureCodehost.fromFile(demoFixturePath),
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    authenticate: (header) => authenticate(store, header),
    checkResponse: undefined,
    nowUs: nowMicros,
  });
  for (let i = 0; i < 6; i++) {
    const body = {
      name: `heavy-${i}`,
      source: "external_container",
      source_config: { custom_url: "https://heavy.example", resource_spec: { labels: { k: "x".repeat(40 * 1024) } } },
      source_revision_config: { image_uri: "registry.example/heavy:1" },
      secrets: [],
    };
    const created = await app(
      new Request(`${base}/v2/deployments`, {
        method: "POST",
        headers: { "x-api-key": demo.acme.apiKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    expect(created.status, await created.text()).toBe(201);
  }
});

describe("a heavy page through the fetch adapter", () => {
  it("is the whole page, read in more than one part", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(parts.length).toBeGreaterThan(2);
    const page = JSON.parse(Buffer.concat(parts).toString("utf8"));
    expect(page.resources.map((d: { name: string }) => d.name).slice(0, 6)).toEqual([
      "heavy-5",
      "heavy-4",
      "heavy-3",
      "heavy-2",
      "heavy-1",
      "heavy-0",
    ]);
    expect(page.offset).toBe(page.resources.length);
  });

  it("frees its slot after HEAD requests and readers that cancel: 40 of them, then a full read", async () => {
    for (let i = 0; i < 20; i++) expect((await get("HEAD")).body).toBeNull();
    for (let i = 0; i < 20; i++) {
      const reader = (await get()).body!.getReader();
      await reader.read();
      await reader.cancel();
    }
    const page = await (await get()).json();
    expect(page.resources.length).toBeGreaterThanOrEqual(6);
  });
});
