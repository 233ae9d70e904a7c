/** Tests of the fuzz case generator: deterministic for a seed, covering every category, framed exactly. */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../common/seeded-random.js";
import { demo } from "../../contract/index.js";
import { type FuzzContext, fuzzCases, makerCount, renderCase } from "./fuzz-cases.js";

const ctx: FuzzContext = { ...demo, existingDeploymentName: "fz-existing", existingProviderId: "fz-existing-provider" };
const rendered = (seed: number, count: number) =>
  [...fuzzCases(seed, count, ctx)].map((c) => renderCase(c, "127.0.0.1:1").toString("base64"));

describe("fuzz cases", () => {
  it("gives the same requests for the same seed", () => {
    expect(rendered(7, 200)).toEqual(rendered(7, 200));
  });

  it("gives different requests for different seeds", () => {
    const a = rendered(7, 200);
    const b = rendered(8, 200);
    expect(a.filter((request, i) => request !== b[i]).length).toBeGreaterThan(100);
  });

  it("covers every category in each round of makers", () => {
    const categories = new Set([...fuzzCases(1, makerCount, ctx)].map((c) => c.category));
    expect(categories.size).toBe(makerCount);
    expect([...categories].sort()).toEqual(
      [
        "bad-utf8",
        "content-type",
        "deep-nesting",
        "header-tricks",
        "fidelity",
        "huge-array",
        "huge-string",
        "integration",
        "method",
        "missing-field",
        "non-json",
        "path",
        "protocol",
        "provider-rule",
        "query",
        "source-rule",
        "wrong-type",
      ].sort(),
    );
  });

  it("never sends a well-formed create of a new deployment with a JSON content type", () => {
    // A create that the server could accept would change the data; the generator must not make one.
    const namePattern = /^[a-zA-Z][a-zA-Z0-9-]{0,62}$/;
    for (const c of fuzzCases(3, 1_500, ctx)) {
      if (c.method !== "POST" || c.target !== "/v2/deployments" || !c.body) continue;
      const contentType = c.headers.find(([name]) => name.toLowerCase() === "content-type")?.[1]?.toString();
      if (contentType !== "application/json") continue;
      let body: unknown;
      try {
        body = JSON.parse(c.body.toString("utf8"));
      } catch {
        continue;
      }
      const d = body as Record<string, unknown>;
      const empty = (value: unknown) =>
        typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
      const plainTemplate =
        typeof d.name === "string" &&
        namePattern.test(d.name) &&
        d.name !== ctx.existingDeploymentName &&
        d.source === "internal_template" &&
        empty(d.source_config) &&
        empty(d.source_revision_config) &&
        Array.isArray(d.secrets) &&
        d.secrets.length === 0 &&
        d.secret_references === undefined;
      expect(
        plainTemplate && c.headers.filter(([name]) => name.toLowerCase() === "x-api-key").length === 1
          ? `case ${c.index} ${c.category} ${c.variant}`
          : "",
      ).toBe("");
    }
  });

  const framing: { given: { method: string; body?: string; autoLength: boolean; host: boolean }; want: RegExp }[] = [
    {
      given: { method: "GET", autoLength: true, host: true },
      want: /^GET \/x HTTP\/1\.1\r\nHost: h\r\nx-api-key: k\r\nConnection: close\r\n\r\n$/,
    },
    {
      given: { method: "POST", body: "{}", autoLength: true, host: true },
      want: /^POST \/x HTTP\/1\.1\r\nHost: h\r\nx-api-key: k\r\nContent-Length: 2\r\nConnection: close\r\n\r\n\{\}$/,
    },
    {
      given: { method: "POST", body: "{}", autoLength: false, host: false },
      want: /^POST \/x HTTP\/1\.1\r\nx-api-key: k\r\nConnection: close\r\n\r\n\{\}$/,
    },
  ];
  it.each(framing)("renders $given.method with autoLength=$given.autoLength host=$given.host", ({ given, want }) => {
    const bytes = renderCase(
      {
        index: 0,
        category: "c",
        operation: "o",
        variant: "v",
        method: given.method,
        target: "/x",
        headers: [["x-api-key", "k"]],
        ...(given.body ? { body: Buffer.from(given.body) } : {}),
        autoLength: given.autoLength,
        host: given.host,
        version: "HTTP/1.1",
      },
      "h",
    );
    expect(bytes.toString("latin1")).toMatch(want);
  });

  it("draws the same PRNG sequence for a seed and stays in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 1_000 }, () => a());
    expect(draws).toEqual(Array.from({ length: 1_000 }, () => b()));
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
