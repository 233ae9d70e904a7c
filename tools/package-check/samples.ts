/** The samples of `doctor` and of a run's coverage that conformance/README.md quotes (D-264, D-344), cut from what the commands printed. */

/** Where the README's samples say the target listens, instead of the port a check's server got. */
const quotedUrl = "http://127.0.0.1:8080";

/**
 * The lines from the one starting with `first` to the last one starting with `last` and the indented lines the
 * console wrapped it onto, inclusive, in a code fence.
 */
function block(output: string, first: string, last: string): string {
  const lines = output.split("\n");
  const from = lines.findIndex((line) => line.startsWith(first));
  let to = lines.findLastIndex((line, i) => i >= from && line.startsWith(last));
  if (from < 0 || to < 0) throw new Error(`no "${first}" … "${last}" block in:\n${output}`);
  while (lines[to + 1]?.startsWith("    ")) to++;
  return `\n\`\`\`\n${lines.slice(from, to + 1).join("\n")}\n\`\`\`\n`;
}

/** The two samples: `doctor` after a run on the demo server, and the coverage table of that run. */
export function readmeSamples(doctorOutput: string, runOutput: string, url: string): Record<string, string> {
  return {
    "doctor-sample": block(doctorOutput.replaceAll(url, quotedUrl), "doctor:", "Every input"),
    "coverage-sample": block(runOutput, "Coverage", "Undocumented statuses answered"),
  };
}
