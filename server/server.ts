/** One server process: opens the store, seeds demo data, compiles validators, listens, and shuts down gracefully. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { DestinationStream, Logger } from "pino";
import { demo, demoFixturePath } from "../contract/demo.js";
import { createApp } from "./app.js";
import { hashApiKey } from "./auth/api-keys.js";
import { authenticate } from "./auth/authenticate.js";
import { cachedKeys } from "./auth/key-cache.js";
import { FixtureCodehost } from "./codehost/fixture-adapter.js";
import type { CodehostPort } from "./codehost/port.js";
import type { Config } from "./config.js";
import { limitConnections } from "./connection-limits.js";
import { resolveEncryptionKey } from "./crypto/encryption-key.js";
import { sealContext } from "./crypto/seal-context.js";
import { SecretBox } from "./crypto/secret-box.js";
import { seedDemo } from "./demo.js";
import type { Dependencies } from "./dependencies.js";
import { type Clock, nowMicros } from "./domain/clock.js";
import { answerClientErrors } from "./errors/client-errors.js";
import { createLogger } from "./logging.js";
import { deploymentRenderer } from "./presenters/deployment-text.js";
import { startProvisioning } from "./provisioning.js";
import { openStore } from "./storage/open-store.js";
import type { Store } from "./storage/store.js";
import { responseChecker } from "./validation/response-validator.js";

interface StartOptions {
  /** Where log lines go (tests capture them); stdout otherwise. */
  logDestination?: DestinationStream;
  /** A store opened by the caller (tests); opened from the configuration otherwise. */
  store?: Store;
  codehost?: CodehostPort;
  /** The one clock of the services, the provisioning sweep and the store it opens; the wall clock otherwise. */
  nowUs?: Clock;
}

export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  logger: Logger;
  seededDemo: boolean;
  /** Whether the demo API keys work on this database (the start banner lists them only then). */
  demoKeysPresent: boolean;
  /** Stops accepting, finishes in-flight requests, then closes the store. */
  close(): Promise<void>;
}

const keyCheckPlaintext = "deployment-service encryption key check";

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const { key, source: keySource } = resolveEncryptionKey(config.encryptionKey, config.dataDir);
  if (keySource === "generated")
    logger.warn(
      { dataDir: config.dataDir },
      "generated a development encryption key; set ENCRYPTION_KEY in production",
    );
  const secretBox = new SecretBox(key);
  const nowUs = options.nowUs ?? nowMicros;
  const store = options.store ?? (await openStore(config, deploymentRenderer, nowUs));
  await checkEncryptionKey(store, secretBox);
  // Values sealed before D-118 are bound to their row now, once.
  const resealed = await store.resealUnbound((sealed, owner) =>
    secretBox.encrypt(secretBox.decrypt(sealed), sealContext(owner)),
  );
  if (resealed > 0) logger.info({ resealed }, "bound sealed values to their rows (D-118)");
  const seededDemo = config.demo ? await seedDemo(store, logger) : false;
  const demoKeysPresent = config.demo && (await store.findApiKeyByHash(hashApiKey(demo.acme.apiKey))) !== undefined;
  const codehost =
    options.codehost ?? FixtureCodehost.fromFile(config.codehostFixture ?? (config.demo ? demoFixturePath : undefined));

  const keys = cachedKeys(store);
  const deps: Dependencies = {
    config,
    store,
    codehost,
    secretBox,
    logger,
    authenticate: (apiKeyHeader) => authenticate(keys, apiKeyHeader),
    checkResponse: config.validateResponses ? responseChecker() : undefined,
    nowUs,
  };
  const app = createApp(deps);
  const server = http.createServer(
    {
      requireHostHeader: false,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: 30_000,
      // How often Node looks for heads and requests past their timeouts (30 s by default, which let an idle
      // connection wait up to 40 s for its 408): a fifth of the head's timeout, at most a second (D-467).
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.headersTimeoutMs / 5)),
    },
    app.callback(),
  );
  answerClientErrors(server, logger);
  limitConnections(
    server,
    { maxConnections: config.maxConnections, perAddress: config.maxConnectionsPerAddress },
    logger,
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const stopProvisioning = startProvisioning(store, logger, config.readyAfterMs, nowUs);
  // The "listening" line is the launch interface (tools read the URL from it): written at any LOG_LEVEL.
  logger
    .child({}, { level: "info" })
    .info({ url, database: store.kind, hosting: config.hosting, demo: config.demo }, "listening");

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Connections still busy after 10 s are cut so that shutdown always ends.
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      await stopProvisioning();
      await store.close();
      logger.info("stopped");
      logger.flush();
    })());
  return { url, port, store, logger, seededDemo, demoKeysPresent, close };
}

/** Refuses to start with a key other than the one the database's secrets were sealed with. */
async function checkEncryptionKey(store: Store, box: SecretBox): Promise<void> {
  const stored = await store.metaGetOrSet("encryption_key_check", box.encrypt(keyCheckPlaintext));
  let matches = false;
  try {
    matches = box.decrypt(stored) === keyCheckPlaintext;
  } catch {
    matches = false;
  }
  if (!matches)
    throw new Error(
      "the encryption key does not match the one this database was created with (check ENCRYPTION_KEY or the data directory)",
    );
}
