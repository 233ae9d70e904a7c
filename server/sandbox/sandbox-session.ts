/** One sandbox session (D-79): the reference server's app on its own in-memory store, seeded with the demo data and the contract's titled examples. */

import { randomBytes } from "node:crypto";
import type Koa from "koa";
import type { Logger } from "pino";
import { demo, demoFixturePath } from "../../contract/index.js";
import { createApp } from "../app.js";
import type { Principal } from "../auth/authenticate.js";
import { FixtureCodehost } from "../codehost/fixture-adapter.js";
import type { Config } from "../config.js";
import { SecretBox } from "../crypto/secret-box.js";
import { seedDemo } from "../demo.js";
import type { Dependencies } from "../dependencies.js";
import { nowMicros } from "../domain/clock.js";
import type { ApiKeyRecord } from "../domain/records.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { createServices, type Services } from "../services/index.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import { responseChecker } from "../validation/response-validator.js";
import { SandboxCodehost } from "./sandbox-codehost.js";
import { sandboxAuthenticator } from "./sandbox-keys.js";
import { seedExamples } from "./seed-examples.js";

/** A session: its app and its store, dropped together. */
export interface SandboxSession {
  readonly handle: ReturnType<Koa["callback"]>;
  close(): Promise<void>;
}

const fixture = FixtureCodehost.fromFile(demoFixturePath);

/** Creates a session: an empty in-memory store, the demo organizations, and the titled examples in the demo tenant. */
export async function createSandboxSession(config: Config, logger: Logger): Promise<SandboxSession> {
  // One clock for the store and the services (D-211).
  const store = new SqliteStore({
    renderer: deploymentRenderer,
    path: ":memory:",
    synchronous: "NORMAL",
    clock: nowMicros,
  });
  await store.migrate();
  await seedDemo(store, logger);
  const codehost = new SandboxCodehost(fixture, demo.acme.productionTenantId);
  let services: Services | undefined;
  const deps: Dependencies = {
    config,
    store,
    codehost,
    // Sandbox secrets live as long as the session, in memory: a fresh key per session.
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    authenticate: sandboxAuthenticator(store, async (key) => {
      codehost.addSandboxTenant(key.defaultTenantId);
      await seedExamples(services!, principalOf(key));
    }),
    checkResponse: responseChecker(),
    nowUs: nowMicros,
  };
  services = createServices(deps);
  await seedExamples(services, {
    apiKeyId: "demo",
    organizationId: demo.acme.organizationId,
    tenantId: demo.acme.productionTenantId,
  });
  const app = createApp(deps);
  return { handle: app.callback(), close: () => store.close() };
}

function principalOf(key: ApiKeyRecord): Principal {
  return { apiKeyId: key.id, organizationId: key.organizationId, tenantId: key.defaultTenantId };
}
