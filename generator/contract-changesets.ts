/**
 * The breaking-change gate's second question (D-261): does every package a breaking change reaches get a
 * major release? Read from the pending changesets (`.changeset/*.md`) and the packages' versions at the base.
 */
import type { ContractChange } from "./contract-classify.js";
import type { Impact } from "./contract-impact.js";

/** A release type of Changesets. */
type Bump = "major" | "minor" | "patch" | "none";

/** The packages a contract change can reach, and why it reaches each. */
const reachedBy: Array<{
  name: string;
  why: (change: ContractChange, impact: Impact | undefined) => string | undefined;
}> = [
  // generated/types.ts, which the client ships, is the whole contract: every change of an operation is a change of its types.
  {
    name: "deployment-client",
    why: (change, impact) =>
      `its types (${impact?.clientTypes.length ? impact.clientTypes.join(", ") : `paths of ${change.operation}`})`,
  },
  // Both mocks answer from the contract: its response schemas and examples, and its request validation.
  {
    name: "deployment-mock",
    why: (change) =>
      `its answers to ${change.operation} (${change.side === "request" ? "what it accepts" : "what it returns"})`,
  },
  // The suite judges every answer against the contract it ships, and its checks name fields and statuses.
  {
    name: "deployment-conformance",
    why: (change, impact) =>
      impact?.checks.length
        ? `its checks ${impact.checks.join(", ")}`
        : change.side === "request"
          ? undefined
          : `its schema check of ${change.operation}'s answers`,
  },
];

/** One package that a breaking change reaches and that has no major release pending. */
interface MissingMajor {
  name: string;
  /** Each breaking change that reaches it, with how. */
  reasons: Array<{ change: ContractChange; how: string }>;
}

/** The bumps of each package in the changeset files' front matter (`"deployment-client": major`), the largest per package. */
export function readChangesets(files: string[]): Map<string, Bump> {
  const rank: Bump[] = ["none", "patch", "minor", "major"];
  const bumps = new Map<string, Bump>();
  for (const text of files) {
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
    for (const match of front.matchAll(/^\s*["']?([@\w./-]+)["']?\s*:\s*(major|minor|patch|none)\s*$/gm)) {
      const [, name, bump] = match as unknown as [string, string, Bump];
      if (rank.indexOf(bump) > rank.indexOf(bumps.get(name) ?? "none")) bumps.set(name, bump);
    }
  }
  return bumps;
}

/** The major part of a semver version (`1.2.3` → 1). */
const majorOf = (version: string | undefined) => Number.parseInt(version ?? "", 10);

/**
 * The packages that breaking changes reach and that get no major release: neither a pending changeset of
 * type major nor a major part of their version above the base's (a `changeset version` already applied).
 */
export function missingMajors(
  changes: ContractChange[],
  impacts: Map<ContractChange, Impact>,
  changesets: Map<string, Bump>,
  versions: { base: Map<string, string>; now: Map<string, string> },
): MissingMajor[] {
  const missing: MissingMajor[] = [];
  for (const target of reachedBy) {
    if (changesets.get(target.name) === "major") continue;
    if (majorOf(versions.now.get(target.name)) > majorOf(versions.base.get(target.name))) continue;
    const reasons = changes
      .filter((change) => change.severity === "breaking")
      .map((change) => ({ change, how: target.why(change, impacts.get(change)) }))
      .filter((reason): reason is { change: ContractChange; how: string } => reason.how !== undefined);
    if (reasons.length > 0) missing.push({ name: target.name, reasons });
  }
  return missing;
}

/** The gate's request for the missing major changesets, each package with the changes (by field) that reach it. */
export function formatMissingMajors(missing: MissingMajor[]): string {
  const lines = [
    `\nfail: a breaking change reaches ${missing.map((m) => m.name).join(", ")}, which get${missing.length === 1 ? "s" : ""} no major release.`,
    "Add a changeset (`npx changeset`, choose major for each), or write .changeset/<name>.md:",
    "---",
    ...missing.map((m) => `"${m.name}": major`),
    "---",
    "<what changed for its users>",
    "",
  ];
  for (const m of missing) {
    lines.push(`${m.name}:`);
    for (const { change, how } of m.reasons)
      lines.push(`  ${change.rule} ${change.location} (${change.detail}): ${how}`);
  }
  return `${lines.join("\n")}\n`;
}
