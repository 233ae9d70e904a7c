/**
 * The engine the mock runs (D-404): the one server module the mock package imports, naming what it takes of the
 * server: the fetch adapter of the pipeline, the in-memory store, the services, validators, errors, auth and records.
 * Nothing here imports a Node built-in the browser build has no shim for (D-173): the Node servers' answer to a
 * request Node's parser refuses (`server/errors/client-errors.ts`, over node:http) is imported by the mock's two
 * Node servers on their own.
 */

export { hashApiKey } from "./auth/api-keys.js";
export { authenticate, type Principal, unauthenticated, withoutHttpWhitespace } from "./auth/authenticate.js";
export { FixtureCodehost } from "./codehost/fixture-adapter.js";
export type { CodehostIntegration, CodehostPort } from "./codehost/port.js";
export { type Hosting, loadConfig } from "./config.js";
export { applyCors, type CorsPolicy, corsPolicyFromEnv, withCors } from "./cors.js";
export { SecretBox } from "./crypto/secret-box.js";
export { seedDemo } from "./demo.js";
export type { Dependencies } from "./dependencies.js";
export { nowMicros } from "./domain/clock.js";
export { type ApiKeyRecord, type DeploymentRecord, maskSecrets, type OAuthProviderRecord } from "./domain/records.js";
export { UniqueViolation } from "./domain/store-errors.js";
export { errorSummary } from "./errors/error-summary.js";
export { HttpProblem } from "./errors/http-problem.js";
export { createFetchApp, type FetchHandler, problemResponse } from "./pipeline/fetch-adapter.js";
export { hostFieldCount, keyFieldCount } from "./pipeline/host-fields.js";
export { presentDeployment } from "./presenters/deployment.js";
export { deploymentRenderer } from "./presenters/deployment-text.js";
export { presentOAuthProvider } from "./presenters/oauth-provider.js";
export { withLeftOutFields } from "./presenters/record-fields.js";
export { createServices, type Services } from "./services/index.js";
export { MemoryStore, StoreFull } from "./storage/memory-store.js";
export type { Store } from "./storage/store.js";
export { bodyLimitBytes, isJsonContentType } from "./validation/json-body.js";
export { compileOperationValidators } from "./validation/operation-validators.js";
export { responseChecker } from "./validation/response-validator.js";
