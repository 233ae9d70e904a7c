/** What the routes need, assembled once by the app (issue 3: one server process). */
import type { Logger } from "pino";
import type { CodehostPort } from "./codehost/port.js";
import type { Config } from "./config.js";
import type { SecretBox } from "./crypto/secret-box.js";
import type { Store } from "./storage/store.js";
import type { OperationValidators } from "./validation/request-validators.js";
import type { ResponseChecker } from "./validation/response-validator.js";

export interface Dependencies {
  config: Config;
  store: Store;
  codehost: CodehostPort;
  secretBox: SecretBox;
  logger: Logger;
  requestValidators: Map<string, OperationValidators>;
  /** Undefined when response validation is off. */
  checkResponse: ResponseChecker | undefined;
  /** Microseconds since the epoch; tests may move time. */
  nowUs: () => number;
}
