/** What the services and the request path need, assembled once per server. */
import type { Logger } from "pino";
import type { CodehostPort } from "./codehost/port.js";
import type { Config } from "./config.js";
import type { SecretBox } from "./crypto/secret-box.js";
import type { Clock } from "./domain/clock.js";
import type { ApiKeyRecord } from "./domain/records.js";
import type { Store } from "./storage/store.js";
import type { ResponseChecker } from "./validation/response-validator.js";

export interface Dependencies {
  config: Config;
  store: Store;
  codehost: CodehostPort;
  secretBox: SecretBox;
  logger: Logger;
  /** The key record of an `X-Api-Key` header, or a 401 HttpProblem (D-13, D-18). */
  authenticate: (apiKeyHeader: string | string[] | undefined) => Promise<ApiKeyRecord>;
  /** Undefined when response validation is off. */
  checkResponse: ResponseChecker | undefined;
  /** The one clock (µs since the epoch), the same the store stamps with; tests may move time. */
  nowUs: Clock;
}
