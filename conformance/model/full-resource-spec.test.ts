import { describe, expect, it } from "vitest";
import { fullResourceSpec, resourceSpecSchema } from "./full-resource-spec.js";

const specSchema = resourceSpecSchema();
const freeFormFields = ["labels", "annotations"];

describe("fullResourceSpec", () => {
  it("holds every field of the contract's resource spec but the free-form ones, which it fills when asked", () => {
    const named = Object.keys(specSchema.properties ?? {}).filter((key) => !freeFormFields.includes(key));
    expect(Object.keys(fullResourceSpec(false)).sort()).toEqual(named.sort());
    expect(Object.keys(fullResourceSpec(true)).sort()).toEqual(Object.keys(specSchema.properties ?? {}).sort());
  });

  it("keeps D-134's relations: each request at most its limit, each minimum at most its maximum", () => {
    const spec = fullResourceSpec(false) as Record<string, number>;
    for (const [key, value] of Object.entries(spec)) {
      const limit = key.replace(/^(.*?)(cpu|memory_mb)$/, (_, head, tail) =>
        tail === "cpu" ? `${head}cpu_limit` : `${head}memory_limit_mb`,
      );
      if (limit !== key && limit in spec) expect(value).toBeLessThanOrEqual(spec[limit]!);
      if (key.endsWith("min_scale")) expect(value).toBeLessThanOrEqual(spec[key.replace("min", "max")]!);
    }
  });

  it("gives labels string values in mixed-case keys, and the container fields a container names", () => {
    const spec = fullResourceSpec(true) as { labels: Record<string, unknown>; sidecars: Record<string, unknown>[] };
    expect(Object.values(spec.labels).every((value) => typeof value === "string")).toBe(true);
    expect(Object.keys(spec.labels).some((key) => key !== key.toLowerCase())).toBe(true);
    expect(spec.sidecars[0]).toMatchObject({ name: expect.any(String), image: expect.stringContaining("/") });
    expect(spec.sidecars[0]?.env).toEqual([
      expect.objectContaining({ name: expect.any(String), valueFrom: expect.any(Object) }),
    ]);
  });
  it("gives each volume one source object, every source in some volume", () => {
    const { volumes } = fullResourceSpec(true) as { volumes: Record<string, unknown>[] };
    const sources = volumes.map((volume) => Object.keys(volume).filter((key) => key !== "name"));
    expect(sources.every((keys) => keys.length === 1)).toBe(true);
    expect(sources.flat()).toEqual([
      "configMap",
      "secret",
      "emptyDir",
      "persistentVolumeClaim",
      "nfs",
      "projected",
      "downwardAPI",
      "csi",
    ]);
    expect(new Set(volumes.map((volume) => volume.name)).size).toBe(volumes.length);
  });
});

describe("fullResourceSpec's edge sets", () => {
  const leaves = (value: unknown): unknown[] =>
    Array.isArray(value) && value.length > 0
      ? value.flatMap(leaves)
      : value && typeof value === "object" && Object.keys(value).length > 0
        ? Object.values(value).flatMap(leaves)
        : [value];
  it.each([
    { given: "zero" as const, want: [0, "", [], {}] },
    { given: "wide" as const, want: [4294967301, 0.3, 1.7, true, "Cf-service_account_name"] },
  ])("$given: every field of the contract, each leaf one of $want", ({ given, want }) => {
    const spec = fullResourceSpec(false, given);
    expect(Object.keys(spec).sort()).toEqual(
      Object.keys(specSchema.properties ?? {})
        .filter((key) => given === "zero" || !freeFormFields.includes(key))
        .sort(),
    );
    const distinct = new Set(leaves(spec).map((leaf) => JSON.stringify(leaf)));
    for (const leaf of want) expect(distinct).toContain(JSON.stringify(leaf));
    if (given === "zero") expect([...distinct].sort()).toEqual(want.map((leaf) => JSON.stringify(leaf)).sort());
  });
});
