/**
 * Figures the READMEs quote, between markers `<!-- figure:NAME -->value<!-- /figure -->` (D-264): each is
 * measured by a script and compared with its quote, counts exactly and sizes within a tolerance.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "..", "..");
/** The files whose figures are kept: the READMEs and the suite's docs beside its README, which its package ships. */
const documents = [
  "README.md",
  "client/README.md",
  "mock/README.md",
  "conformance/README.md",
  ...readdirSync(join(repoRoot, "conformance", "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `conformance/docs/${file}`),
];
/** How far a size may move before its quote counts as stale. */
const sizeTolerance = 0.15;
const marker = /<!-- figure:([\w-]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** Every quoted figure: its name, the file it stands in, and its text. */
export function quotedFigures(): Array<{ name: string; file: string; text: string }> {
  return documents.flatMap((file) =>
    [...readFileSync(join(repoRoot, file), "utf8").matchAll(marker)].map((m) => ({ name: m[1]!, file, text: m[2]! })),
  );
}

/**
 * What differs between a quote and a measurement of the same form: a sample of a command's output (a figure
 * named `*-sample`) must be equal line for line; otherwise every number is compared in order, one followed by a
 * size unit (kB, MB) within the tolerance and any other equal. Undefined when they agree.
 */
export function figureDrift(quoted: string, measured: string, name = ""): string | undefined {
  if (name.endsWith("-sample")) {
    const lines = (text: string) => text.trim().split("\n");
    const [have, want] = [lines(quoted), lines(measured)];
    const at = want.findIndex((line, i) => line !== have[i]);
    if (at < 0 && have.length === want.length) return undefined;
    const i = at < 0 ? want.length : at;
    return `line ${i + 1} quotes "${have[i] ?? ""}", the command printed "${want[i] ?? ""}"`;
  }
  const numbers = (text: string) => [...text.matchAll(/(\d+(?:\.\d+)?)(\s*(?:kB|MB))?/g)];
  const want = numbers(measured);
  const have = numbers(quoted);
  if (want.length !== have.length) return `quotes "${quoted}", measured "${measured}"`;
  for (const [i, measure] of want.entries()) {
    const a = Number(have[i]![1]);
    const b = Number(measure[1]);
    const ok = measure[2] ? Math.abs(a - b) <= b * sizeTolerance : a === b;
    if (!ok) return `quotes "${quoted}", measured "${measured}"`;
  }
  return undefined;
}

/** Writes measured figures into every marker of that name; returns the files changed. */
export function writeFigures(measured: Record<string, string>): string[] {
  const changed: string[] = [];
  for (const file of documents) {
    const path = join(repoRoot, file);
    const text = readFileSync(path, "utf8");
    const next = text.replace(marker, (whole, name: string) =>
      name in measured ? `<!-- figure:${name} -->${measured[name]}<!-- /figure -->` : whole,
    );
    if (next !== text) {
      writeFileSync(path, next);
      changed.push(file);
    }
  }
  return changed;
}

/** The figure of a tarball as the READMEs quote it: sizes only, since its file count moves with every module added (D-264). */
export function tarballFigure(p: { size: number; unpackedSize: number }): string {
  return `${(p.size / 1024).toFixed(1)} kB, ${(p.unpackedSize / 1024).toFixed(0)} kB unpacked`;
}
