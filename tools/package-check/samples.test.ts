/** The README's samples cut from the commands' output (D-344). */
import { describe, expect, it } from "vitest";
import { readmeSamples } from "./samples.js";

describe("readmeSamples", () => {
  const doctor = "doctor: http://127.0.0.1:41234 (reached)\n✓ --api-key accepted\nEvery input given is right.\n";
  const run =
    "Conformance run x\n\nCoverage\nop 200\nStatuses: 1 of 1\nUndocumented statuses answered: none\n\nSummary\n";

  it("fences doctor's lines with the port shown as 8080", () => {
    expect(readmeSamples(doctor, run, "http://127.0.0.1:41234")["doctor-sample"]).toBe(
      "\n```\ndoctor: http://127.0.0.1:8080 (reached)\n✓ --api-key accepted\nEvery input given is right.\n```\n",
    );
  });

  it("cuts the coverage table up to its undocumented statuses", () => {
    expect(readmeSamples(doctor, run, "http://127.0.0.1:41234")["coverage-sample"]).toBe(
      "\n```\nCoverage\nop 200\nStatuses: 1 of 1\nUndocumented statuses answered: none\n```\n",
    );
  });

  it("keeps the lines the console wrapped the last one onto", () => {
    const wrapped = run.replace("answered: none", "answered: a 405 (PROP-003);\n    b 405 (PROP-003)");
    expect(readmeSamples(doctor, wrapped, "http://127.0.0.1:41234")["coverage-sample"]).toBe(
      "\n```\nCoverage\nop 200\nStatuses: 1 of 1\nUndocumented statuses answered: a 405 (PROP-003);\n    b 405 (PROP-003)\n```\n",
    );
  });

  it("fails when a block is missing", () => {
    expect(() => readmeSamples("no doctor here", run, "x")).toThrow(/no "doctor:"/);
  });
});
