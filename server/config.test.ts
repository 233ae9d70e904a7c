/** Tests of configuration parsing (launch interface): defaults, and a clear one-line message for each bad value. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";
import { defaultMaxConnections } from "./descriptor-limit.js";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: undefined,
      hosting: "cloud",
      readyAfterMs: 2000,
      logLevel: "info",
      validateResponses: true,
      demo: true,
      encryptionKey: undefined,
    });
    expect(config.sqlitePath).toMatch(/data\/service\.sqlite$/);
    expect(config).toMatchObject({
      maxConnections: defaultMaxConnections(),
      maxConnectionsPerAddress: 256,
      headersTimeoutMs: 10_000,
    });
    expect(config.sqliteSynchronous).toBe("FULL");
    expect(loadConfig({ SQLITE_SYNCHRONOUS: "normal" }).sqliteSynchronous).toBe("NORMAL");
    expect(loadConfig({ NODE_ENV: "production" }).validateResponses).toBe(false);
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "0",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u@h:5432/d",
      SQLITE_PATH: "/tmp/x.sqlite",
      HOSTING: "self_hosted",
      ENCRYPTION_KEY: "ab".repeat(32),
      READY_AFTER_MS: "10",
      LOG_LEVEL: "warn",
      VALIDATE_RESPONSES: "false",
      DEMO: "false",
      MAX_CONNECTIONS: "900",
      MAX_CONNECTIONS_PER_ADDRESS: "0",
      HEADERS_TIMEOUT_MS: "500",
    });
    expect(config).toMatchObject({
      port: 0,
      host: "0.0.0.0",
      databaseUrl: "postgres://u@h:5432/d",
      sqlitePath: "/tmp/x.sqlite",
      hosting: "self_hosted",
      readyAfterMs: 10,
      logLevel: "warn",
      validateResponses: false,
      demo: false,
      maxConnections: 900,
      maxConnectionsPerAddress: 0,
      headersTimeoutMs: 500,
    });
    expect(config.encryptionKey?.length).toBe(32);
  });

  const bad = [
    { env: { PORT: "http" }, message: /^PORT must be an integer/ },
    { env: { PORT: "70000" }, message: /^PORT must be an integer/ },
    { env: { HOSTING: "on-prem" }, message: /^HOSTING must be one of cloud, self_hosted/ },
    { env: { ENCRYPTION_KEY: "short" }, message: /^ENCRYPTION_KEY must be 64 hex characters/ },
    { env: { READY_AFTER_MS: "-5" }, message: /^READY_AFTER_MS must be an integer/ },
    { env: { VALIDATE_RESPONSES: "yes" }, message: /^VALIDATE_RESPONSES must be true or false/ },
    { env: { DEMO: "maybe" }, message: /^DEMO must be true or false/ },
    { env: { SQLITE_SYNCHRONOUS: "off" }, message: /^SQLITE_SYNCHRONOUS must be one of full, normal/ },
    { env: { LOG_LEVEL: "loud" }, message: /^LOG_LEVEL must be one of/ },
    { env: { MAX_CONNECTIONS: "0" }, message: /^MAX_CONNECTIONS must be an integer from 1/ },
    { env: { MAX_CONNECTIONS_PER_ADDRESS: "-1" }, message: /^MAX_CONNECTIONS_PER_ADDRESS must be an integer/ },
    { env: { HEADERS_TIMEOUT_MS: "60000" }, message: /^HEADERS_TIMEOUT_MS must be an integer from 100 to 30000/ },
    { env: { DATABASE_URL: "mysql://x" }, message: /^DATABASE_URL must be a postgres:\/\/ URL/ },
  ];
  for (const { env, message } of bad) {
    it(`rejects ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    });
  }

  it("never prints the bad encryption key", () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: "secret-but-wrong" })).toThrow(
      /^ENCRYPTION_KEY must be 64 hex characters \(32 bytes\)$/,
    );
  });
});
