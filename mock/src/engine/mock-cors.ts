/**
 * The CORS policy of every mock (D-132): loopback origins besides `CORS_ORIGINS`, and in preflights the mocks' session
 * header (D-79) and the methods of the sandbox's own API (PUT of a state, DELETE of a session: D-320).
 */
import { type CorsPolicy, corsPolicyFromEnv } from "../../../server/engine.js";

/** The request header that names a sandbox session. */
const mockSessionHeader = "X-Mock-Session";

export function mockCorsPolicy(env: NodeJS.ProcessEnv): CorsPolicy {
  return corsPolicyFromEnv(env, true, [mockSessionHeader], ["PUT", "DELETE"]);
}
