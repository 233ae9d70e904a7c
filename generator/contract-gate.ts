/** The breaking-change gate's verdict: breaking changes pass only with a major version raise or an entry in spec/CHANGELOG.md (D-82). */
import type { ContractChange } from "./contract-classify.js";

/** One acknowledgment line of spec/CHANGELOG.md: `- <rule id> <location>: <why>` under `## Unreleased`. */
interface Acknowledgment {
  rule: string;
  /** A full change location (`createDeployment request body.name`), an operation id, a component schema name, or a component schema and one enum value. */
  location: string;
  why: string;
}

/** The verdict on a list of changes. */
interface Verdict {
  pass: boolean;
  /** Whether info.version's major part went up versus the base. */
  majorRaised: boolean;
  /** Breaking changes neither a major raise nor an acknowledgment covers. */
  blocking: ContractChange[];
  /** Breaking changes acknowledged in the changelog. */
  acknowledged: ContractChange[];
}

/** Reads the acknowledgment lines of the `## Unreleased` section of a changelog. */
export function readAcknowledgments(changelog: string): Acknowledgment[] {
  const acknowledgments: Acknowledgment[] = [];
  let unreleased = false;
  for (const line of changelog.split("\n")) {
    if (line.startsWith("## ")) unreleased = /^## Unreleased\b/i.test(line);
    const match = unreleased ? line.match(/^- ([a-z][a-z-]*) (.+?):\s+(.*)$/) : null;
    if (match) acknowledgments.push({ rule: match[1]!, location: match[2]!.trim(), why: match[3]!.trim() });
  }
  return acknowledgments;
}

/** Whether an acknowledgment covers a change: same rule, and its location is the change's, its operation's, or a component schema on its path (optionally with the one enum value). */
function acknowledges(acknowledgment: Acknowledgment, change: ContractChange): boolean {
  if (acknowledgment.rule !== change.rule) return false;
  const where = acknowledgment.location;
  if (where === change.location || where === change.operation || change.schemas.includes(where)) return true;
  // `<Component> <enum value>` covers only the changes of that value, so that a later value is not waved through.
  const [schema, ...value] = where.split(" ");
  return (
    value.length > 0 && change.schemas.includes(schema!) && change.detail.includes(JSON.stringify(value.join(" ")))
  );
}

/** The major part of a version (`2.1.0` → 2); NaN when it has none. */
function majorOf(version: unknown): number {
  return Number.parseInt(String(version ?? "").replace(/^v/, ""), 10);
}

/** Judges the changes from a base at `baseVersion` to a document at `version`. */
export function judge(
  changes: ContractChange[],
  baseVersion: unknown,
  version: unknown,
  acknowledgments: Acknowledgment[],
): Verdict {
  const majorRaised = majorOf(version) > majorOf(baseVersion);
  const breaking = changes.filter((change) => change.severity === "breaking");
  const acknowledged = breaking.filter((change) =>
    acknowledgments.some((acknowledgment) => acknowledges(acknowledgment, change)),
  );
  const blocking = majorRaised ? [] : breaking.filter((change) => !acknowledged.includes(change));
  return { pass: blocking.length === 0, majorRaised, blocking, acknowledged };
}

/**
 * The interface level's changes that the full level does not list already (D-402): a change found at both levels (a
 * required field added is one at each) is one change, printed and counted once, with the full level.
 */
export function onlyAtInterfaceLevel(full: ContractChange[], interfaceLevel: ContractChange[]): ContractChange[] {
  const key = (change: ContractChange) => `${change.rule} ${change.location}`;
  const listed = new Set(full.map(key));
  return interfaceLevel.filter((change) => !listed.has(key(change)));
}
