/** Tests of the check registry: ids are unique and stable (conformance/check-ids.json is append-only). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allChecks, areas, idArea } from "./checks/index.js";
import { sampledOperations } from "./operation-samples.js";

const committed = JSON.parse(readFileSync(new URL("./check-ids.json", import.meta.url), "utf8")) as string[];
/** The areas that cut across operations, by HTTP concern or kind of test; each operation's own area comes from its sample. */
const crossCuttingAreas = [
  "AUTH",
  "ISO",
  "ERR",
  "HDR",
  "STATUS",
  "STATE",
  "POS",
  "FUZZ",
  "EDGE",
  "SEM",
  "CORS",
  "RES",
  "BOUND",
];
const areaPrefixes = [...new Set(sampledOperations.map(({ sample }) => sample.area)), ...crossCuttingAreas];
const idPattern = new RegExp(`^(${areaPrefixes.join("|")})-\\d{3}$`);

describe("check registry", () => {
  it("has no duplicate id", () => {
    const seen = new Map<string, number>();
    for (const c of allChecks) seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([id]) => id)).toEqual([]);
  });

  it("keeps every id of check-ids.json (ids are never renamed or removed)", () => {
    const current = new Set(allChecks.map((c) => c.id));
    expect(committed.filter((id) => !current.has(id))).toEqual([]);
  });

  it("lists every current id in check-ids.json (append new ids there)", () => {
    const listed = new Set(committed);
    expect(allChecks.map((c) => c.id).filter((id) => !listed.has(id))).toEqual([]);
  });

  it("check-ids.json itself has no duplicate", () => {
    expect(new Set(committed).size).toBe(committed.length);
  });

  for (const c of allChecks) {
    it(`${c.id} is well formed`, () => {
      expect(c.id).toMatch(idPattern);
      expect(["MUST", "SHOULD"]).toContain(c.level);
      expect(c.tags.length).toBeGreaterThan(0);
      expect(c.statement.length).toBeGreaterThan(10);
      expect(c.statement).not.toContain("\n");
      // MUST points at the interface spec, SHOULD at a decision of spec/decisions.md
      expect(c.specRef).toMatch(c.level === "MUST" ? /^interface-spec/ : /D-\d\d/);
    });
  }

  it("has checks in the own area of every operation of the contract", () => {
    const prefixes = new Set(allChecks.map((c) => idArea(c.id)));
    expect(
      sampledOperations.filter(({ sample }) => !prefixes.has(sample.area)).map(({ operation }) => operation.id),
    ).toEqual([]);
  });

  it("keeps each area's ids in its own file", () => {
    for (const [area, checks] of Object.entries(areas))
      expect(new Set(checks.map((c) => idArea(c.id).split("-")[0])).size, area).toBe(1);
  });
});
