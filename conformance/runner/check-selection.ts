/** Which checks a run selects (--level, --only, --skip) and why a selected check cannot run (needs). */

import { didYouMean } from "../cli/closest.js";
import type { ConformanceConfig } from "../cli/run-config.js";
import type { Check, Need } from "./check.js";

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

/** Every word a token of --only or --skip can be: check ids, their prefixes (areas such as DEP-LIST) and tags. */
function selectionWords(checks: readonly Check[]): Set<string> {
  const words = new Set<string>();
  for (const check of checks) {
    words.add(check.id);
    const parts = check.id.split("-");
    for (let n = 1; n < parts.length; n += 1) words.add(parts.slice(0, n).join("-"));
    for (const tag of check.tags) words.add(tag);
  }
  return words;
}

/**
 * The --only and --skip tokens that match no check, each as one line with the closest id, area or tag
 * (D-240): a typo must not run nothing (or everything) and then read as a verdict.
 */
export function unmatchedTokens(checks: readonly Check[], config: Pick<ConformanceConfig, "only" | "skip">): string[] {
  const words = selectionWords(checks);
  const out: string[] = [];
  for (const [flag, tokens] of [
    ["--only", config.only],
    ["--skip", config.skip],
  ] as const)
    for (const token of tokens)
      if (!checks.some((check) => matches(check, token)))
        out.push(`${flag} ${token} matches no check id, area or tag${didYouMean(token, words)}`);
  return out;
}
