/** The two adapters of the pipeline (D-270) over equal in-memory stores: the Koa app and the fetch handler, each also on a port for raw bytes. */
import { randomBytes } from "node:crypto";
import http from "node:http";
import pino from "pino";
import { listen } from "../../common/listen.js";
import { demoFixturePath } from "../../contract/index.js";
import { createFetchHttpServer } from "../../mock/src/engine/fetch-http-server.js";
import { createApp } from "../../server/app.js";
import { authenticate } from "../../server/auth/authenticate.js";
import { FixtureCodehost } from "../../server/codehost/fixture-adapter.js";
import { loadConfig } from "../../server/config.js";
import { corsPolicyFromEnv, withCors } from "../../server/cors.js";
import { SecretBox } from "../../server/crypto/secret-box.js";
import { seedDemo } from "../../server/demo.js";
import type { Dependencies } from "../../server/dependencies.js";
import { nowMicros } from "../../server/domain/clock.js";
import { answerClientErrors } from "../../server/errors/client-errors.js";
import { createFetchApp, type FetchHandler } from "../../server/pipeline/fetch-adapter.js";
import { deploymentRenderer } from "../../server/presenters/deployment-text.js";
import { MemoryStore } from "../../server/storage/memory-store.js";
import { responseChecker } from "../../server/validation/response-validator.js";

/** One adapter: where it listens, and (the fetch one) its handler to call in-process. */
interface Twin {
  url: string;
  port: number;
}

export interface Twins {
  koa: Twin;
  fetch: Twin & { handle: FetchHandler };
  close(): Promise<void>;
}

const logger = pino({ level: "silent" });
const config = { ...loadConfig({}), demo: true, readyAfterMs: 3_600_000, validateResponses: true };
const secretKey = randomBytes(32);

/** Equal dependencies: a fresh in-memory store with the demo data, the demo fixture, one sealing key, no provisioning sweep. */
async function dependencies(): Promise<Dependencies> {
  const store = new MemoryStore({ renderer: deploymentRenderer });
  await seedDemo(store, logger);
  return {
    config,
    store,
    codehost: FixtureCodehost.fromFile(demoFixturePath),
    secretBox: new SecretBox(secretKey),
    logger,
    authenticate: (header) => authenticate(store, header),
    checkResponse: responseChecker(),
    nowUs: nowMicros,
  };
}

/** Starts both adapters, each on its own store. */
export async function startTwins(): Promise<Twins> {
  const koaServer = http.createServer({ requireHostHeader: false }, createApp(await dependencies()).callback());
  answerClientErrors(koaServer, logger);
  const cors = corsPolicyFromEnv({}, true);
  const app = createFetchApp(await dependencies());
  // CORS wraps the fetch handler as it wraps every mock (D-132); on Koa it is a middleware.
  const handle: FetchHandler = (request, sent) => withCors(cors, request, () => app(request, sent));
  const koa = await listen(koaServer, 0, "127.0.0.1");
  const fetch = await listen(createFetchHttpServer(handle, logger), 0, "127.0.0.1");
  return {
    koa,
    fetch: { ...fetch, handle },
    close: async () => {
      await koa.close();
      await fetch.close();
    },
  };
}
