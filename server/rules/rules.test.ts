/** Unit tests of the domain rules (D-08, D-39 to D-45, D-48, D-58 and the cpu facts), table-driven. */
import { describe, expect, it } from "vitest";
import { imageVersion } from "./image-version.js";
import { checkOAuthUrl, isLoopback } from "./oauth-urls.js";
import { sortRepositories } from "./ordering.js";
import { checkResourceRelations, normalizeResourceSpec, roundCpu } from "./resource-spec.js";
import { checkSecretNames } from "./secret-names.js";
import { checkSourceAvailability } from "./source-availability.js";
import { checkSourceRules } from "./source-rules.js";

describe("image version", () => {
  const cases = [
    { source: "external_container", image: "registry.example:5000/app:v2", want: "v2" },
    { source: "internal_container", image: "registry.example:5000/app", want: null },
    { source: "internal_container", image: `app:1.0@sha256:${"b".repeat(64)}`, want: "1.0" },
    // only a source that carries an image has a version (D-42)
    { source: "internal_template", image: "app:1", want: null },
    { source: "external_container", image: undefined, want: null },
  ] as const;
  for (const { source, image, want } of cases) {
    it(`${source} ${JSON.stringify(image)} → ${want}`, () => expect(imageVersion(source, image)).toBe(want));
  }
});

describe("OAuth URLs", () => {
  const cases: Array<{ url: string; ok: boolean }> = [
    { url: "https://auth.example/authorize", ok: true },
    { url: "https://auth.example:8443/a?b=c", ok: true },
    { url: "http://localhost/cb", ok: true },
    { url: "http://api.localhost:3000/x", ok: false },
    { url: "http://127.10.0.1/x", ok: true },
    { url: "http://[::1]/x", ok: true },
    { url: "http://auth.example/authorize", ok: false },
    { url: "http://10.0.0.1/x", ok: false },
    { url: "http://localhost.evil.example/x", ok: false },
    { url: "http://127.0.0.1.nip.io/x", ok: false },
    { url: "javascript:alert(1)", ok: false },
    { url: "https://u:p@auth.example/", ok: false },
    { url: "https://auth.example/#frag", ok: false },
    { url: "auth.example/authorize", ok: false },
  ];
  for (const { url, ok } of cases) {
    it(`${url} ${ok ? "accepted" : "rejected"}`, () => {
      expect(checkOAuthUrl(url) === undefined).toBe(ok);
    });
  }
  it("knows loopback hosts", () => {
    expect(["localhost", "127.0.0.1", "[::1]", "::1"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "example.com", "128.0.0.1"].some(isLoopback)).toBe(false);
  });
});

describe("cpu rounding and default limits", () => {
  const cases = [
    { given: { cpu: 0.25 }, want: { cpu: 0.3, cpu_limit: 0.6 } },
    { given: { cpu: 1, cpu_limit: 1.55 }, want: { cpu: 1, cpu_limit: 1.6 } },
    { given: { cpu: null, cpu_limit: null }, want: { cpu: null, cpu_limit: null } },
    { given: { executor_cpu: 0.04 }, want: { executor_cpu: 0, executor_cpu_limit: 0 } },
    { given: { orchestrator_cpu_limit: 3.333 }, want: { orchestrator_cpu_limit: 3.3 } },
    { given: { memory_mb: 512 }, want: { memory_mb: 512 } },
    // D-133: a defaulted limit stays within the schema's maximum of 128 cores.
    { given: { cpu: 100 }, want: { cpu: 100, cpu_limit: 128 } },
    { given: { cpu: 128 }, want: { cpu: 128, cpu_limit: 128 } },
  ];
  for (const { given, want } of cases) {
    it(JSON.stringify(given), () => {
      expect(normalizeResourceSpec(given)).toEqual(want);
    });
  }
  it("rounds half away from zero at one decimal", () => {
    expect([0.05, 0.15, 2.449, 2.45].map(roundCpu)).toEqual([0.1, 0.2, 2.4, 2.5]);
  });
});

describe("resource relations (D-134)", () => {
  const at = "/source_config/resource_spec";
  it.each([
    { name: "min_scale above max_scale", given: { min_scale: 5, max_scale: 1 }, want: [`${at}/min_scale`] },
    { name: "equal scales", given: { min_scale: 3, max_scale: 3 }, want: [] },
    {
      name: "queue scales inverted",
      given: { queue_min_scale: 2, queue_max_scale: 1 },
      want: [`${at}/queue_min_scale`],
    },
    {
      name: "orchestrator scales inverted",
      given: { orchestrator_min_scale: 2, orchestrator_max_scale: 0 },
      want: [`${at}/orchestrator_min_scale`],
    },
    { name: "cpu above its limit", given: { cpu: 4, cpu_limit: 1 }, want: [`${at}/cpu`] },
    { name: "cpu above its limit only before rounding", given: { cpu: 1.04, cpu_limit: 1 }, want: [`${at}/cpu`] },
    {
      name: "db memory above its limit",
      given: { db_memory_mb: 512, db_memory_limit_mb: 256 },
      want: [`${at}/db_memory_mb`],
    },
    { name: "only one side set", given: { cpu: 4, max_scale: 1 }, want: [] },
    { name: "null sides", given: { min_scale: 5, max_scale: null }, want: [] },
    {
      name: "two pairs inverted",
      given: { min_scale: 2, max_scale: 1, executor_cpu: 2, executor_cpu_limit: 1 },
      want: [`${at}/min_scale`, `${at}/executor_cpu`],
    },
  ])("$name", ({ given, want }) => {
    expect(checkResourceRelations(given, at).map((error) => error.pointer)).toEqual(want);
  });
});

describe("per-source table", () => {
  it("names the missing required fields first, then the forbidden ones, each in table order", () => {
    const violations = checkSourceRules({
      name: "x",
      source: "internal_source",
      source_config: { listener_id: "00000000-0000-4000-8000-000000000001", install_command: "npm ci" },
      source_revision_config: { graph_config_path: " ", image_uri: "app:1" },
      secrets: [],
    });
    expect(violations.map((v) => [v.pointer, v.detail])).toEqual([
      ["/source_revision_config/graph_config_path", "is required for 'internal_source' source"],
      ["/source_revision_config/source_tarball_path", "is required for 'internal_source' source"],
      ["/source_revision_config/image_uri", "is not applicable to 'internal_source' source"],
      ["/source_config/listener_id", "is not applicable to 'internal_source' source"],
    ]);
  });

  it("names every field that does not belong to the source", () => {
    const violations = checkSourceRules({
      name: "x",
      source: "internal_template",
      source_config: { custom_url: "https://x", build_on_push: false, install_command: "npm ci" },
      source_revision_config: { graph_config_path: "g.json", image_uri: null },
      secrets: [],
      secret_references: [],
    });
    expect(violations.map((v) => v.pointer)).toEqual([
      "/source_config/build_on_push",
      "/source_revision_config/graph_config_path",
      "/source_config/custom_url",
      "/secret_references",
      "/source_config/install_command",
    ]);
    expect(violations.find((v) => v.pointer.endsWith("graph_config_path"))?.detail).toBe(
      "must be null for 'internal_template' source",
    );
  });

  it("only external_container is self-hosted", () => {
    for (const source of [
      "codehost",
      "external_container",
      "internal_container",
      "internal_source",
      "internal_template",
    ] as const) {
      expect(checkSourceAvailability(source, "cloud") === undefined).toBe(source !== "external_container");
      expect(checkSourceAvailability(source, "self_hosted") === undefined).toBe(source === "external_container");
    }
  });
});

describe("ordering and pagination", () => {
  it("sorts repositories by owner then name, by code point", () => {
    const repo = (owner: string, name: string, id: number) => ({
      id,
      owner,
      name,
      url: "",
      defaultBranch: "main",
      branches: {},
      tags: {},
    });
    const sorted = sortRepositories([repo("b", "a", 1), repo("a", "b", 2), repo("a", "B", 3), repo("a", "a", 4)]);
    expect(sorted.map((r) => `${r.owner}/${r.name}`)).toEqual(["a/B", "a/a", "a/b", "b/a"]);
  });
});

describe("secret names (D-116)", () => {
  const secret = (name: string) => ({ name, value: "v" });
  const cases = [
    { given: ["DB_URL", "_X", "a.b-c"], want: [] },
    { given: ["../../etc"], want: ["/secrets/0/name"] },
    {
      given: ["a/b", "..", ".", "1A", " A", "A B", "A\\B"],
      want: [0, 1, 2, 3, 4, 5, 6].map((i) => `/secrets/${i}/name`),
    },
    { given: ["TOKEN", "OTHER", "TOKEN"], want: ["/secrets/2/name"] },
    { given: ["TOKEN", "token"], want: [] },
  ];
  for (const { given, want } of cases)
    it(`${JSON.stringify(given)} -> ${JSON.stringify(want)}`, () => {
      expect(checkSecretNames(given.map(secret)).map((error) => error.pointer)).toEqual(want);
    });
  it("says which secret a duplicate repeats", () => {
    expect(checkSecretNames([secret("A"), secret("A")])).toEqual([
      { pointer: "/secrets/1/name", detail: "duplicates the name of /secrets/0" },
    ]);
  });
});
