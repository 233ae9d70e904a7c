/**
 * `npm run figures`: packs the three packages and writes the figures the READMEs quote (D-264): each tarball's
 * packed and unpacked size, and the number of conformance checks. The install size of the conformance package is written
 * by its package check (tools/package-check/conformance.ts --write-figures), which measures it.
 */
import { allChecks } from "../../conformance/checks/index.js";
import { tarballFigure, writeFigures } from "./figures.js";
import { packWorkspaces } from "./packages.js";

const measured: Record<string, string> = { checks: String(allChecks.length) };
for (const p of packWorkspaces()) measured[`${p.name.replace(/^deployment-/, "")}-tarball`] = tarballFigure(p);
const changed = writeFigures(measured);
process.stdout.write(
  `${Object.entries(measured)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n")}\n${changed.length ? `wrote ${changed.join(", ")}` : "every figure was up to date"}\n`,
);
