/**
 * One sandbox session (D-79): an in-memory store with the demo organizations and the titled examples, its own
 * clock (the wall clock plus what tests advanced it by, D-321) and its state read and replaced in the format
 * of mock-state.ts (D-320), always in the tenant and organization of the key that asks.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { demo, demoFixturePath } from "../../../contract/index.js";
import {
  type ApiKeyRecord,
  createFetchApp,
  createServices,
  type Dependencies,
  deploymentRenderer,
  type FetchHandler,
  FixtureCodehost,
  HttpProblem,
  MemoryStore,
  nowMicros,
  responseChecker,
  SecretBox,
  StoreFull,
  seedDemo,
  UniqueViolation,
} from "../../../server/engine.js";
import { deploymentRecordsOf, type MockState, MockStateError, providerRecordsOf, stateOf } from "./mock-state.js";
import { SandboxCodehost } from "./sandbox-codehost.js";
import { sandboxAuthenticator } from "./sandbox-keys.js";
import { seedExamples } from "./seed-examples.js";

/** A session: its fetch handler, its clock, and its state for a key (its bytes are the session table's, D-396). */
export interface SandboxSession {
  handle: FetchHandler;
  /** Milliseconds the session's clock runs ahead of the wall clock. */
  advancedMs: number;
  /** The key's deployments and providers as they read now. */
  snapshot(key: string): Promise<MockState>;
  /** Replaces the key's deployments and providers by the state's (and the clock's advance when the state has one). */
  restore(key: string, state: MockState): Promise<void>;
}

const fixture = FixtureCodehost.fromFile(demoFixturePath);

/** A new session: an empty in-memory store, the demo organizations, and the titled examples in the demo tenant. */
export async function createSandboxSession(
  config: Dependencies["config"],
  logger: Logger,
  maxDeployments: number,
): Promise<SandboxSession> {
  const store = new MemoryStore({ renderer: deploymentRenderer, maxDeployments });
  await seedDemo(store, logger);
  const codehost = new SandboxCodehost(fixture, demo.acme.productionTenantId);
  let services: ReturnType<typeof createServices> | undefined;
  const session = { advancedMs: 0 } as SandboxSession;
  // Every read and write of the session asks this clock, so status transitions follow it (D-321).
  const nowUs = () => nowMicros() + session.advancedMs * 1000;
  const deps: Dependencies = {
    config,
    store,
    codehost,
    // Sandbox secrets live as long as the session, in memory: a fresh key per session.
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    authenticate: sandboxAuthenticator(store, async (key: ApiKeyRecord) => {
      codehost.addSandboxTenant(key.defaultTenantId);
      await seedExamples(services!, {
        apiKeyId: key.id,
        organizationId: key.organizationId,
        tenantId: key.defaultTenantId,
      });
    }),
    checkResponse: responseChecker(),
    nowUs,
  };
  services = createServices(deps);
  await seedExamples(services, {
    apiKeyId: "demo",
    organizationId: demo.acme.organizationId,
    tenantId: demo.acme.productionTenantId,
  });
  session.handle = createFetchApp(deps, { problemOf: storeFullProblem });
  session.snapshot = async (key) => {
    const owner = await deps.authenticate(key);
    return {
      ...stateOf(
        store.tenantDeploymentRecords(owner.defaultTenantId, nowUs()),
        await store.listOAuthProviders(owner.organizationId),
      ),
      clock_advanced_ms: session.advancedMs,
    };
  };
  session.restore = async (key, state) => {
    const owner = await deps.authenticate(key);
    const where = { tenantId: owner.defaultTenantId, organizationId: owner.organizationId };
    const before = session.advancedMs;
    if (state.clock_advanced_ms !== undefined) session.advancedMs = state.clock_advanced_ms;
    try {
      store.replaceTenantDeployments(
        owner.defaultTenantId,
        deploymentRecordsOf(state, where, nowUs(), config.readyAfterMs * 1000),
      );
    } catch (error) {
      // a refused state leaves the session as it was, its clock included (D-395); ids are unique in the whole
      // store and other keys of the session hold deployments too, so a state may take one of their ids
      session.advancedMs = before;
      // (the parser refused repeats within the state, so only such an id is left to meet)
      if (error instanceof UniqueViolation)
        throw new MockStateError(
          `/deployments/${state.deployments.findIndex(({ id }) => id === error.taken)}/id is the id of a deployment another key of this session holds`,
        );
      throw error;
    }
    store.replaceOAuthProviders(owner.organizationId, providerRecordsOf(state, where));
  };
  return session;
}

/** A full in-memory store as 503 (D-170): the session holds its cap of deployments. */
export function storeFullProblem(error: unknown): HttpProblem | undefined {
  if (!(error instanceof StoreFull)) return undefined;
  return new HttpProblem(
    "serviceUnavailable",
    `This mock session holds its cap of ${error.maxDeployments} deployments; reset it (POST /__mock/reset) or use another X-Mock-Session.`,
  );
}
