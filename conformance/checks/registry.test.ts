/** Tests of the check registry: ids are unique and stable (conformance/check-ids.json is append-only). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sampledOperations } from "../check-kit/operation-samples.js";
import { allChecks, areas, idArea } from "./index.js";

const committed = JSON.parse(readFileSync(new URL("../check-ids.json", import.meta.url), "utf8")) as string[];
/**
 * The areas are one per operation (its prefix comes from its sample) and the ones that cut across operations,
 * one per HTTP concern or kind of test, listed here.
 */
const crossCuttingAreas = [
  "AUTH",
  "ISO",
  "ERR",
  "HDR",
  "STATUS",
  "STATE",
  "POS",
  "FUZZ",
  "CORS",
  "RES",
  "BOUND",
  "SCHEMA",
  "PROP",
  "LAW",
];
/**
 * Prefixes of former areas named by neither an operation nor an HTTP concern: their checks now live in the area
 * of the operation or concern they judge, under their old ids (ids never change); each with the last number it gave,
 * since no new id takes these prefixes.
 */
const lastRetiredNumber: Record<string, number> = { EDGE: 15, SEM: 18 };
const retiredPrefixes = Object.keys(lastRetiredNumber);
const areaPrefixes = [
  ...new Set(sampledOperations.map(({ sample }) => sample.area)),
  ...crossCuttingAreas,
  ...retiredPrefixes,
];
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

  it("keeps each area's ids in its own file (besides checks kept under a retired prefix)", () => {
    for (const [area, checks] of Object.entries(areas)) {
      const prefixes = new Set(checks.map((c) => idArea(c.id).split("-")[0]));
      expect([...prefixes].filter((p) => !retiredPrefixes.includes(p!)).length, area).toBe(1);
    }
  });

  it("gives no new id a retired prefix", () => {
    const beyond = allChecks.filter((c) => Number(c.id.split("-").at(-1)) > (lastRetiredNumber[idArea(c.id)] ?? 999));
    expect(beyond.map((c) => c.id)).toEqual([]);
  });
});
