/** The message of a static mode or a proxy without its peers (D-273): what to install, at the pins the package declares, and the mode that needs none. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { missingStaticPeers } from "./prism-process.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  peerDependencies: Record<string, string>;
};

describe("missingStaticPeers", () => {
  it("names both peers at the versions mock/package.json declares, both commands that need them, and --stateful", () => {
    const { message } = missingStaticPeers();
    const pinned = ["@stoplight/prism-cli", "@redocly/openapi-core"].map(
      (name) => `${name}@${manifest.peerDependencies[name]}`,
    );
    expect(message).toContain(`npm install --save-dev ${pinned.join(" ")}`);
    expect(message).toMatch(/static mock and the contract proxy/);
    expect(message).toContain("--stateful");
  });
});
