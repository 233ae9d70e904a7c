/** `npm run contract:check`: the breaking-change gate; compares spec/ as it is now with a base commit's generated/openapi.json (D-82). */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseCommandLine } from "../common/cli.js";
import {
  baseDocumentText,
  defaultBase,
  defaultBaseRule,
  packageVersions,
  pendingChangesets,
  shortCommit,
} from "./contract-base.js";
import { formatMissingMajors, missingMajors, readChangesets } from "./contract-changesets.js";
import { type ContractChange, classifyChanges } from "./contract-classify.js";
import { dereference } from "./contract-dereference.js";
import { judge, onlyAtInterfaceLevel, readAcknowledgments } from "./contract-gate.js";
import { clientTypeAliases, type Impact, impactOf } from "./contract-impact.js";
import { formatChanges } from "./contract-report.js";
import { reportExampleFields } from "./example-fields.js";
import { fieldExceptionAdvice } from "./field-exceptions.js";
import { interfaceLevel } from "./interface-level.js";
import { redoclyDiff } from "./redocly-diff.js";
import { compileTypeSpec } from "./typespec-compile.js";

const root = resolve(import.meta.dirname, "..");
const usage = `Usage: npm run contract:check -- [--base <git ref>] [--json]

Compiles spec/ as it is in the working tree (no \`npm run generate\` needed) and compares it with
the generated/openapi.json committed at the base. Every change is classified by the side a client
sees it from (request or response) as breaking, compatible or info, with the conformance checks,
titled examples and client types it touches.

Exits 1 when a breaking change is neither covered by a raised major part of info.version nor
acknowledged in spec/CHANGELOG.md (a line \`- <rule id> <location>: <why>\` under \`## Unreleased\`),
or when a package it reaches (deployment-client, deployment-mock, deployment-conformance) has no
major changeset in .changeset/ (D-261); 0 otherwise; 2 when spec/ does not compile or the base cannot
be read.

  --base <ref>  the commit to compare with; default: ${defaultBaseRule}
  --json        print the changes, their impact and the verdict as JSON`;

const { values } = parseCommandLine(usage, { base: { type: "string" }, json: { type: "boolean" } });
const base = values.base ? { ref: values.base, why: "--base" } : defaultBase();

let baseText: string;
try {
  baseText = baseDocumentText(base.ref);
} catch (error) {
  process.stderr.write(
    `contract:check: cannot read generated/openapi.json at ${base.ref}: ${(error as { stderr?: string }).stderr ?? String(error)}\n`,
  );
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), "contract-check-"));
const compiled = await compileTypeSpec(scratch).finally(() => rmSync(scratch, { recursive: true, force: true }));
// When only titled examples fail (a field removed or renamed), the gate judges spec/ without them (D-262).
const withoutExamples = compiled.ok ? undefined : await reportExampleFields(compiled.diagnostics, baseText);
if (!compiled.ok && !withoutExamples) {
  process.stderr.write(`${compiled.diagnostics}\ncontract:check: spec/ does not compile; see the diagnostics above.\n`);
  process.exit(2);
}
if (withoutExamples) process.stdout.write(`${withoutExamples.message}\n`);
const afterText = withoutExamples?.text ?? compiled.text;

// Redocly's own diff runs beside the classifier as a second opinion (generator/contract-check.test.ts shows where they differ and why).
const [before, after, redocly] = await Promise.all([
  dereference(baseText),
  dereference(afterText),
  redoclyDiff(baseText, afterText).catch(() => undefined),
]);
const changes = classifyChanges(before, after);
// The interface level (D-220), derived from each side the same way: what the MUST checks judge, a contract of its own whose
// changes are classified and gated alike. A base without `x-decision` marks has no interface level yet: nothing to compare.
const baseHasLevels = baseText.includes('"x-decision"');
const interfaceText = (text: string) => JSON.stringify(interfaceLevel(JSON.parse(text)));
// A change at both levels is listed and counted once, with the full level (D-402).
const interfaceChanges = onlyAtInterfaceLevel(
  changes,
  baseHasLevels
    ? classifyChanges(
        ...(await Promise.all([dereference(interfaceText(baseText)), dereference(interfaceText(afterText))])),
      )
    : [],
);
const aliases = clientTypeAliases();
// A removed operation's examples are the base's: the new document no longer has them.
const impacts = new Map<ContractChange, Impact>(
  changes.map((change) => [change, impactOf(change, change.rule === "operation-removed" ? before : after, aliases)]),
);
const changelogPath = join(root, "spec", "CHANGELOG.md");
const acknowledgments = readAcknowledgments(existsSync(changelogPath) ? readFileSync(changelogPath, "utf8") : "");
const verdict = judge(changes, before.info?.version, after.info?.version, acknowledgments);
const interfaceVerdict = judge(interfaceChanges, before.info?.version, after.info?.version, acknowledgments);
const commit = shortCommit(base.ref);
const missing = missingMajors(changes, impacts, readChangesets(pendingChangesets()), {
  base: packageVersions(base.ref),
  now: packageVersions(),
});
const pass = verdict.pass && interfaceVerdict.pass && missing.length === 0;

if (values.json) {
  const rows = changes.map((change) => ({
    ...change,
    impact: impacts.get(change),
    acknowledged: verdict.acknowledged.includes(change),
    blocking: verdict.blocking.includes(change),
  }));
  const report = {
    base: { ref: base.ref, commit, why: base.why, version: before.info?.version },
    version: after.info?.version,
    changes: rows,
    redocly: redocly && { bump: redocly.bump },
    interfaceLevel: {
      compared: baseHasLevels,
      changes: interfaceChanges.map((change) => ({
        ...change,
        acknowledged: interfaceVerdict.acknowledged.includes(change),
        blocking: interfaceVerdict.blocking.includes(change),
      })),
      pass: interfaceVerdict.pass,
    },
    missingMajorChangesets: missing.map((m) => ({
      name: m.name,
      reasons: m.reasons.map((reason) => ({ location: reason.change.location, how: reason.how })),
    })),
    pass,
    majorRaised: verdict.majorRaised,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const marks = new Map<ContractChange, string>();
  for (const change of verdict.acknowledged) marks.set(change, "acknowledged in spec/CHANGELOG.md");
  for (const change of verdict.blocking) marks.set(change, "BLOCKS");
  for (const change of interfaceVerdict.acknowledged) marks.set(change, "acknowledged in spec/CHANGELOG.md");
  for (const change of interfaceVerdict.blocking) marks.set(change, "BLOCKS");
  process.stdout.write(
    `contract:check: spec/ (info.version ${after.info?.version}) against ${base.ref.startsWith(commit) ? commit : `${base.ref} = ${commit}`} (${base.why}; info.version ${before.info?.version})\n\n`,
  );
  process.stdout.write(formatChanges(changes, impacts, marks));
  if (redocly)
    process.stdout.write(
      `\nredocly diff (second opinion): ${redocly.bump === "none" ? "no change" : `${redocly.bump} bump`}\n`,
    );
  process.stdout.write(
    `\ninterface level (generated/openapi.interface.json, what the MUST checks judge, D-220; only what the full level does not list): ${baseHasLevels ? formatChanges(interfaceChanges, undefined, marks) : "the base has no x-decision marks, so no interface level to compare\n"}`,
  );
  if (pass) {
    const why = verdict.majorRaised
      ? "the major version was raised"
      : verdict.acknowledged.length > 0
        ? "every breaking change is acknowledged in spec/CHANGELOG.md"
        : "no breaking change";
    process.stdout.write(`\npass: ${why}.\n`);
  } else if (!verdict.pass || !interfaceVerdict.pass) {
    process.stdout.write(
      `\nfail: ${verdict.blocking.length + interfaceVerdict.blocking.length} breaking change(s). Raise the major part of info.version, or acknowledge each under "## Unreleased" in spec/CHANGELOG.md\n(a component schema name as the location covers every operation that uses it):\n` +
        [...verdict.blocking, ...interfaceVerdict.blocking]
          .map((change) => `- ${change.rule} ${change.location}: <why>\n`)
          .join(""),
    );
  }
  if (missing.length > 0) process.stdout.write(formatMissingMajors(missing));
  // Not the gate's verdict, but the next failure a new field meets: its exception entry, ready to paste (D-481).
  const advice = fieldExceptionAdvice(JSON.parse(afterText));
  if (advice) process.stdout.write(`\n${advice}`);
}
if (withoutExamples) {
  process.stderr.write(
    `${compiled.diagnostics}\ncontract:check: spec/ does not compile until the examples above fit the model; the changes above are judged without them.\n`,
  );
  process.exit(2);
}
process.exit(pass ? 0 : 1);
