/** Which checks a run selects (--level, --only, --skip) and why a selected check cannot run (needs). */
import type { Check, Need } from "./check.js";
import type { ConformanceConfig } from "./config.js";

/** Whether a token names a check: its id, an id prefix (`DEP-LIST`), or one of its tags. */
export function matches(check: Check, token: string): boolean {
  const t = token.trim();
  if (!t) return false;
  const upper = t.toUpperCase();
  return check.id === upper || check.id.startsWith(`${upper}-`) || check.tags.includes(t);
}

/** Whether a check is selected by level, --only and --skip. */
export function isSelected(check: Check, config: Pick<ConformanceConfig, "level" | "only" | "skip">): boolean {
  if (config.level === "must" && check.level !== "MUST") return false;
  if (config.only.length > 0 && !config.only.some((t) => matches(check, t))) return false;
  if (config.skip.some((t) => matches(check, t))) return false;
  return true;
}

/** Why a check cannot run with this configuration, or undefined when it can. */
export function unmetNeed(check: Check, config: ConformanceConfig): string | undefined {
  const reasons: Record<Need, () => string | undefined> = {
    write: () => (config.readOnly ? "creates records and --read-only is set" : undefined),
    state: () => (config.stateless ? "needs a target that keeps state (--stateless is set)" : undefined),
    server: () =>
      config.stateless ? "judges error details a schema mock does not reproduce (--stateless is set)" : undefined,
    integration: () => (config.integrationId ? undefined : "needs --integration-id"),
    managedIntegration: () => (config.managedIntegrationId ? undefined : "needs --managed-integration-id"),
    otherApiKey: () => (config.otherApiKey ? undefined : "needs --other-api-key"),
    otherTenant: () => (config.otherTenantId ? undefined : "needs --other-tenant-id"),
    cloud: () => (config.hosting === "cloud" ? undefined : "applies to --hosting cloud only"),
    self_hosted: () => (config.hosting === "self_hosted" ? undefined : "applies to --hosting self_hosted only"),
  };
  for (const need of check.needs) {
    const reason = reasons[need]();
    if (reason) return reason;
  }
  return undefined;
}
