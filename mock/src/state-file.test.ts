/** `--state-file` (D-322): the sessions written after a change come back, by owner, in a sandbox started from the file. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMemorySandbox } from "./engine/memory-sandbox.js";
import { readStateFile, stateFileWriter } from "./state-file.js";

const dir = await mkdtemp(join(tmpdir(), "mock-state-file-"));
afterAll(() => rm(dir, { recursive: true }));

const created = {
  name: "kept-across-restarts",
  source: "internal_container",
  source_config: {},
  source_revision_config: { image_uri: "registry.example/acme/agent:1" },
  secrets: [{ name: "TOKEN", value: "never-written" }],
};
const ask = (key: string, init: RequestInit = {}) =>
  new Request("http://sandbox.test/v2/deployments", {
    ...init,
    headers: { "X-Api-Key": key, "X-Mock-Session": "s", "Content-Type": "application/json" },
  });
const names = async (response: Response) =>
  ((await response.json()) as { resources: { name: string }[] }).resources.map((d) => d.name);

describe("state file", () => {
  it("keeps a created deployment for its owner across a restart, without secret values", async () => {
    const path = join(dir, "state.json");
    expect(await readStateFile(path)).toEqual([]);
    let changed = () => {};
    const first = createMemorySandbox({ onChange: () => changed() });
    const writer = stateFileWriter(path, first.savedSessions);
    changed = writer.changed;
    expect((await first.handle(ask("owner", { method: "POST", body: JSON.stringify(created) }))).status).toBe(201);
    await writer.flush();
    expect(await readFile(path, "utf8")).not.toContain("never-written");
    const second = createMemorySandbox({ saved: await readStateFile(path) });
    // Another key under the same session id does not get the owner's state.
    const stranger = createMemorySandbox({ saved: await readStateFile(path) });
    expect(await names(await second.handle(ask("owner")))).toContain("kept-across-restarts");
    expect(await names(await stranger.handle(ask("stranger")))).not.toContain("kept-across-restarts");
    expect((await second.savedSessions()).map((saved) => saved.session)).toEqual(["s"]);
  });

  it.each([
    ['{"format":"deployment-mock-state/1"}', /not a state file/],
    ['{"format":"deployment-mock-sessions/1","sessions":[{"session":"s","owner_sha256":"x","state":{}}]}', /format/],
  ])("refuses %s", async (text, message) => {
    const path = join(dir, "bad.json");
    await writeFile(path, text);
    await expect(readStateFile(path)).rejects.toThrow(message);
  });
});
