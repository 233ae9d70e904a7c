/** `npm start [-- --fresh]` (launch interface): configuration from the environment, start, SIGTERM/SIGINT graceful shutdown. */
import { parseArgs } from "node:util";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { demoBanner } from "./demo.js";
import { removeEmbeddedDatabase } from "./fresh-start.js";
import { startServer } from "./server.js";

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
    // --fresh (D-330): start over on the demo data, as on a first start.
    if (parseArgs({ options: { fresh: { type: "boolean", default: false } }, strict: true }).values.fresh)
      process.stderr.write(`--fresh: removed ${removeEmbeddedDatabase(config)}\n`);
  } catch (error) {
    if (error instanceof ConfigError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      process.stderr.write(`configuration error: ${(error as Error).message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const server = await startServer(config);
  // The banner goes to stderr so that stdout stays one JSON log line per line.
  if (server.demoKeysPresent) process.stderr.write(`${demoBanner(server.url, config.hosting)}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
