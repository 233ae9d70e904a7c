/** spec/interface-tables.json is what the interface specification says: checked whenever ../shared/interface-spec.md is beside the repository (CI has it). */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { extractInterfaceTables, loadInterfaceTables } from "./interface-tables.js";

const specification = resolve(import.meta.dirname, "..", "..", "shared", "interface-spec.md");

describe.skipIf(!existsSync(specification))("interface tables against the interface specification", () => {
  it("holds every table of the specification, row for row (run `npm run interface-tables` after the specification changes)", () => {
    const fresh = extractInterfaceTables(readFileSync(specification, "utf8"));
    const held = loadInterfaceTables();
    expect(held.sections.map((section) => section.heading)).toEqual(fresh.sections.map((section) => section.heading));
    for (const [index, section] of fresh.sections.entries())
      expect(held.sections[index], section.heading).toEqual(section);
  });
});
