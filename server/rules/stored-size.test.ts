import { describe, expect, it } from "vitest";
import type { DeploymentCreate } from "../../contract/schemas.js";
import { checkStoredSize, maxStoredConfigBytes } from "./stored-size.js";

/** An external_container body whose resource_spec label holds `length` times `character`, and `references` secret references. */
function body(length: number, references = 0, character = "x"): DeploymentCreate {
  const created = {
    name: "sized",
    source: "external_container",
    source_config: { resource_spec: { labels: { k: character.repeat(length) } } },
    source_revision_config: { image_uri: "registry.example/i:1" },
    secrets: [],
    secret_references: Array.from({ length: references }, (_, i) => ({
      name: `R${i}`,
      secret_name: "s".repeat(255),
      secret_key: "k".repeat(255),
    })),
  };
  // The generated type reads labels' values as never; the rule only measures JSON.
  return created as unknown as DeploymentCreate;
}

/** The label size that brings the three members to exactly the bound. */
const overhead =
  Buffer.byteLength(JSON.stringify(body(0).source_config)) +
  Buffer.byteLength(JSON.stringify(body(0).source_revision_config)) +
  2;

describe("checkStoredSize (D-282)", () => {
  it.each([
    ["a small body", body(10), []],
    ["exactly the bound", body(maxStoredConfigBytes - overhead), []],
    ["one byte over, in source_config", body(maxStoredConfigBytes - overhead + 1), ["/source_config"]],
    ["over, mostly in secret_references", body(30_000, 100), ["/secret_references"]],
    [
      "multi-byte characters counted as UTF-8",
      body((maxStoredConfigBytes - overhead) / 2 + 1, 0, "é"),
      ["/source_config"],
    ],
  ])("%s", (_, given, pointers) => {
    expect(checkStoredSize(given as DeploymentCreate).map((error) => error.pointer)).toEqual(pointers);
  });
});
