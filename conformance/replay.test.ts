/** Tests of the replay command line: what it takes and rejects, and the command printed for a failure. */
import { describe, expect, it } from "vitest";
import { ConfigError, type RunConfig, resolveConfig } from "./config.js";
import { parseReplayArgs, replayCommand, replayLauncher } from "./replay.js";

describe("parseReplayArgs", () => {
  it("takes a check id and the flags after it", () => {
    expect(parseReplayArgs(["dep-list-004", "--seed", "7", "--base-url", "http://x"])).toEqual({
      checkId: "DEP-LIST-004",
      flags: ["--seed", "7", "--base-url", "http://x"],
    });
    expect(parseReplayArgs(["FUZZ-001", "--seed=7"]).checkId).toBe("FUZZ-001");
  });
  const bad: { given: string[]; want: RegExp }[] = [
    { given: [], want: /needs a check id/ },
    { given: ["--seed", "1"], want: /needs a check id/ },
    { given: ["DEP-LIST", "--seed", "1"], want: /one check id/ },
    { given: ["DEP-LIST-004"], want: /needs --seed/ },
  ];
  for (const c of bad)
    it(`rejects ${JSON.stringify(c.given)}`, () => {
      expect(() => parseReplayArgs(c.given)).toThrow(ConfigError);
      expect(() => parseReplayArgs(c.given)).toThrow(c.want);
    });
});

describe("replayLauncher", () => {
  const cases: { given: string; want: string }[] = [
    {
      given: "/home/me/project/node_modules/deployment-conformance/dist/cli.mjs",
      want: "npx deployment-conformance replay",
    },
    {
      given: "C:\\work\\node_modules\\deployment-conformance\\dist\\cli.mjs",
      want: "npx deployment-conformance replay",
    },
    { given: "/work/clone/conformance/replay.ts", want: "npm run conformance -- replay" },
    { given: "/work/clone/conformance/dist/cli.mjs", want: "npm run conformance -- replay" },
  ];
  for (const c of cases) it(`${c.given} -> ${c.want}`, () => expect(replayLauncher(c.given)).toBe(c.want));
  it("runs from this clone through the npm script", () =>
    expect(replayLauncher()).toBe("npm run conformance -- replay"));
});

describe("replayCommand", () => {
  const config = (argv: string[]): RunConfig => ({
    ...resolveConfig(["--base-url", "http://h:1", "--api-key", "secret-key", ...argv], {}).config,
    runId: "abc123",
    seed: 42,
  });
  it("names the check and the seed and refers to the key by its variable", () => {
    const command = replayCommand(config([]), "DEP-LIST-004", "npm run conformance -- replay");
    expect(command).toBe(
      `npm run conformance -- replay DEP-LIST-004 --seed 42 --base-url 'http://h:1' --api-key "$CONFORMANCE_API_KEY"`,
    );
  });
  it("keeps the flags that change what is sent, and no secret", () => {
    const command = replayCommand(
      config([
        "--other-api-key",
        "other-secret",
        "--hosting",
        "self_hosted",
        "--stateless",
        "--fuzz-runs",
        "5",
        "-H",
        "Authorization: Bearer tok",
        "-H",
        "X-Team: it's",
      ]),
      "FUZZ-001",
    );
    expect(command).toContain(`--other-api-key "$CONFORMANCE_OTHER_API_KEY"`);
    expect(command).toContain("--hosting 'self_hosted' --stateless --fuzz-runs '5'");
    expect(command).toContain(`-H 'Authorization: [REDACTED]' -H 'X-Team: it'\\''s'`);
    expect(command).not.toMatch(/secret-key|other-secret|tok/);
  });
  it("is parsed back by parseReplayArgs and resolveConfig to the same seed and target", () => {
    const words = ["DEP-LIST-004", "--seed", "42", "--base-url", "http://h:1", "--api-key", "k"];
    const { checkId, flags } = parseReplayArgs(words);
    expect(checkId).toBe("DEP-LIST-004");
    expect(resolveConfig(flags, {}).config).toMatchObject({ seed: 42, baseUrl: "http://h:1" });
  });
});
