/** Tests of the replay command line: what it takes and rejects, and the command printed for a failure. */
import { describe, expect, it } from "vitest";
import { parseReplayArgs, replayCommand, replayLauncher } from "./replay-command.js";
import { ConfigError, type ConformanceConfig, type RunConfig, resolveConfig } from "./run-config.js";

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
    { given: "/work/clone/conformance/cli/replay-command.ts", want: "npx tsx conformance/bin.ts replay" },
    { given: "/work/clone/conformance/dist/cli.mjs", want: "npx tsx conformance/bin.ts replay" },
  ];
  for (const c of cases) it(`${c.given} -> ${c.want}`, () => expect(replayLauncher(c.given)).toBe(c.want));
  it("runs from this clone through npx, which echoes no argument", () =>
    expect(replayLauncher()).toBe("npx tsx conformance/bin.ts replay"));
});

describe("replayCommand", () => {
  const config = (argv: string[]): RunConfig => ({
    ...resolveConfig(["--base-url", "http://h:1", "--api-key", "secret-key", ...argv], {}).config,
    runId: "abc123",
    seed: 42,
  });
  it("names the check and the seed and leaves the key to its environment variable", () => {
    const command = replayCommand(config([]), "DEP-LIST-004", "npx deployment-conformance replay");
    expect(command).toBe("npx deployment-conformance replay DEP-LIST-004 --seed 42 --base-url 'http://h:1'");
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
    expect(command).not.toContain("--other-api-key");
    expect(command).toContain("--hosting 'self_hosted' --stateless --fuzz-runs '5'");
    // every -H value is a secret (D-392): a shell variable, never the value
    expect(command).toContain(
      `-H 'Authorization: '"$CONFORMANCE_HEADER_AUTHORIZATION" -H 'X-Team: '"$CONFORMANCE_HEADER_X_TEAM"`,
    );
    expect(command).not.toMatch(/secret-key|other-secret|tok|it'/);
  });
  it("is parsed back by parseReplayArgs and resolveConfig to the same seed and target", () => {
    const words = ["DEP-LIST-004", "--seed", "42", "--base-url", "http://h:1", "--api-key", "k"];
    const { checkId, flags } = parseReplayArgs(words);
    expect(checkId).toBe("DEP-LIST-004");
    expect(resolveConfig(flags, {}).config).toMatchObject({ seed: 42, baseUrl: "http://h:1" });
  });
});

/** The words of a printed command as a POSIX shell splits them ('…' quoting, "$VAR" replaced from `vars`). */
function shellWords(command: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/(?:'[^']*'|\\'|"\$(\w+)"|[^\s'"\\]+)+/g))
    words.push(
      match[0]
        .replace(/"\$(\w+)"/g, (_, name: string) => vars[name] ?? "")
        .split("\\'")
        .map((part) => part.replace(/'([^']*)'/g, "$1"))
        .join("'"),
    );
  return words;
}

describe("replayCommand carries every flag a check uses", () => {
  const base = ["--base-url", "http://h:1", "--api-key", "main-key"];
  const cases: { flag: string[]; key: keyof ConformanceConfig }[] = [
    { flag: ["--tenant-id", "11111111-1111-4111-8111-111111111111"], key: "tenantId" },
    { flag: ["--other-tenant-id", "22222222-2222-4222-8222-222222222222"], key: "otherTenantId" },
    { flag: ["--other-api-key", "other-key"], key: "otherApiKey" },
    { flag: ["--hosting", "self_hosted"], key: "hosting" },
    { flag: ["--integration-id", "33333333-3333-4333-8333-333333333333"], key: "integrationId" },
    { flag: ["--managed-integration-id", "44444444-4444-4444-8444-444444444444"], key: "managedIntegrationId" },
    { flag: ["--codehost-tag", "refs/tags/v1.0.0"], key: "codehostTag" },
    { flag: ["--read-only"], key: "readOnly" },
    { flag: ["--stateless"], key: "stateless" },
    { flag: ["--fuzz-runs", "7"], key: "fuzzRuns" },
    { flag: ["--state-runs", "3"], key: "stateRuns" },
    { flag: ["--timeout-ms", "2500"], key: "timeoutMs" },
    { flag: ["--settle-ms", "100"], key: "settleMs" },
    { flag: ["--max-response-time", "900"], key: "maxResponseTimeMs" },
    { flag: ["--max-response-bytes", "4096"], key: "maxResponseBytes" },
    { flag: ["-H", "X-Team: it's"], key: "headers" },
  ];
  for (const c of cases)
    it(c.flag[0] as string, () => {
      const run: RunConfig = { ...resolveConfig([...base, ...c.flag], {}).config, runId: "r", seed: 9 };
      const words = shellWords(replayCommand(run, "ISO-008", "replay"), {
        CONFORMANCE_API_KEY: "main-key",
        CONFORMANCE_OTHER_API_KEY: "other-key",
        CONFORMANCE_HEADER_X_TEAM: "it's",
      });
      const { flags } = parseReplayArgs(words.slice(1));
      // the keys come from the environment, as the user who runs the line has them
      const env = { CONFORMANCE_API_KEY: "main-key", CONFORMANCE_OTHER_API_KEY: "other-key" };
      expect(resolveConfig(flags, env).config[c.key]).toEqual(run[c.key]);
    });
});
