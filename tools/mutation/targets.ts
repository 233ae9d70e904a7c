/**
 * The two targets of the mutation run (D-360), each held in this process behind a standard fetch: the reference
 * server's pipeline over SQLite in memory, and the sandbox's engine over the memory store, both with the demo data
 * and a short provisioning delay so that the status checks settle fast.
 */
import { randomBytes } from "node:crypto";
import pino from "pino";
import { demoFixturePath } from "../../contract/index.js";
import { createMemorySandbox } from "../../mock/src/engine/memory-sandbox.js";
import { authenticate } from "../../server/auth/authenticate.js";
import { cachedKeys } from "../../server/auth/key-cache.js";
import { FixtureCodehost } from "../../server/codehost/fixture-adapter.js";
import { type Hosting, loadConfig } from "../../server/config.js";
import { corsPolicyFromEnv, withCors } from "../../server/cors.js";
import { SecretBox } from "../../server/crypto/secret-box.js";
import { seedDemo } from "../../server/demo.js";
import { nowMicros } from "../../server/domain/clock.js";
import { createFetchApp, type FetchHandler } from "../../server/pipeline/fetch-adapter.js";
import { deploymentRenderer } from "../../server/presenters/deployment-text.js";
import { startProvisioning } from "../../server/provisioning.js";
import { SqliteStore } from "../../server/storage/sqlite-store.js";
import { responseChecker } from "../../server/validation/response-validator.js";
import { inProcessFetch } from "./in-process-fetch.js";

/** Which implementation a target runs. */
export type TargetKind = "reference" | "sandbox";

/** A target in this process: its fetch, the base URL the suite writes (never dialled), and how to stop it. */
export interface InProcessTarget {
  fetch: typeof fetch;
  baseUrl: string;
  close(): Promise<void>;
}

/** Milliseconds until a new deployment turns READY: short, so that checks waiting for it settle in a moment. */
export const readyAfterMs = 50;

const logger = pino({ level: "silent" });

/** The reference server's pipeline as server/server.ts assembles it, on SQLite in memory, with no listening socket. */
async function startReference(hosting: Hosting): Promise<InProcessTarget> {
  const config = { ...loadConfig({}), hosting, demo: true, readyAfterMs, validateResponses: false };
  const store = new SqliteStore({ path: ":memory:", renderer: deploymentRenderer, clock: nowMicros });
  await store.migrate();
  await seedDemo(store, logger);
  const keys = cachedKeys(store);
  const app = createFetchApp({
    config,
    store,
    codehost: FixtureCodehost.fromFile(demoFixturePath),
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    // through the key cache, as server/server.ts does
    authenticate: (header) => authenticate(keys, header),
    // the production setting: a mutant the response checker alone would turn into a 500 is the suite's to catch
    checkResponse: config.validateResponses ? responseChecker() : undefined,
    nowUs: nowMicros,
  });
  // CORS as the reference server's Koa app applies it (server/app.ts), around the fetch handler as twins.ts does
  const cors = corsPolicyFromEnv({}, config.demo);
  const handle: FetchHandler = (request, sent) => withCors(cors, request, () => app(request, sent));
  const stopProvisioning = startProvisioning(store, logger, readyAfterMs, nowMicros);
  return {
    fetch: inProcessFetch(handle),
    baseUrl: "http://reference.invalid",
    close: async () => {
      await stopProvisioning();
      await store.close();
    },
  };
}

/** The sandbox (the mocks' engine, D-79) on the memory store, as the stateful MSW handlers run it. */
async function startSandbox(hosting: Hosting): Promise<InProcessTarget> {
  const sandbox = createMemorySandbox({ hosting, readyAfterMs, logger });
  return { fetch: inProcessFetch(sandbox.handle), baseUrl: "http://sandbox.invalid", close: async () => {} };
}

/** Starts a target of the given kind and hosting. */
export function startTarget(kind: TargetKind, hosting: Hosting): Promise<InProcessTarget> {
  return kind === "reference" ? startReference(hosting) : startSandbox(hosting);
}
