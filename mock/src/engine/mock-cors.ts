/** The CORS policy of every mock (D-132): loopback origins besides `CORS_ORIGINS`, and the mocks' session header in preflights (D-79). */
import { type CorsPolicy, corsPolicyFromEnv } from "../../../server/engine.js";

/** The request header that names a sandbox session. */
const mockSessionHeader = "X-Mock-Session";

export function mockCorsPolicy(env: NodeJS.ProcessEnv): CorsPolicy {
  return corsPolicyFromEnv(env, true, [mockSessionHeader]);
}
