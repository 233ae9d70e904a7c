/** The header that carries an API key: `X-Api-Key: KEY` by default, `Authorization: Bearer KEY` with `--auth-scheme bearer` (D-231). */
import type { ConformanceConfig } from "../cli/run-config.js";

/** The key's header for the configured scheme. */
export function keyHeader(config: Pick<ConformanceConfig, "authScheme">, key: string): Record<string, string> {
  return config.authScheme === "bearer" ? { Authorization: `Bearer ${key}` } : { "X-Api-Key": key };
}
