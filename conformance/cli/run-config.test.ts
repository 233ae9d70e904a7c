/** Tests of configuration precedence (flags > env > file) and validation. */
import { describe, expect, it } from "vitest";
import { ConfigError, configFromObject, envName, publicConfig, resolveConfig } from "./run-config.js";

const file = (content: unknown) => () => JSON.stringify(content);

describe("resolveConfig precedence", () => {
  const cases: {
    name: string;
    argv: string[];
    env: Record<string, string>;
    file?: unknown;
    want: Record<string, unknown>;
  }[] = [
    {
      name: "flags only",
      argv: ["--base-url", "http://a.example/", "--api-key", "k1"],
      env: {},
      want: {
        baseUrl: "http://a.example",
        apiKey: "k1",
        hosting: "cloud",
        level: "should",
        readOnly: false,
        fuzzRuns: 100,
        stateRuns: 25,
        settleMs: 20_000,
        clockToleranceMs: 2000,
      },
    },
    {
      name: "env fills what flags leave out",
      argv: ["--api-key", "k1"],
      env: {
        CONFORMANCE_BASE_URL: "http://env.example",
        CONFORMANCE_HOSTING: "self_hosted",
        CONFORMANCE_READ_ONLY: "true",
      },
      want: { baseUrl: "http://env.example", apiKey: "k1", hosting: "self_hosted", readOnly: true },
    },
    {
      name: "flags beat env",
      argv: ["--base-url", "http://flag.example", "--api-key", "flag"],
      env: { CONFORMANCE_BASE_URL: "http://env.example", CONFORMANCE_API_KEY: "env" },
      want: { baseUrl: "http://flag.example", apiKey: "flag" },
    },
    {
      name: "env beats file, file fills the rest",
      argv: ["--config", "c.json"],
      env: { CONFORMANCE_API_KEY: "env" },
      file: {
        baseUrl: "http://file.example",
        apiKey: "file",
        "integration-id": "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
        only: ["DEP-LIST", "auth"],
      },
      want: {
        baseUrl: "http://file.example",
        apiKey: "env",
        integrationId: "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65",
        only: ["DEP-LIST", "auth"],
      },
    },
    {
      name: "a tag the integration holds, for DEP-CREATE-026",
      argv: ["--base-url", "http://x.example", "--api-key", "k", "--codehost-tag", "refs/tags/v1.0.0"],
      env: {},
      want: { codehostTag: "refs/tags/v1.0.0" },
    },
    {
      name: "config file named by env",
      argv: [],
      env: { CONFORMANCE_CONFIG: "c.json" },
      file: { "base-url": "http://file.example", "api-key": "file", level: "must", "read-only": true },
      want: { baseUrl: "http://file.example", level: "must", readOnly: true },
    },
    {
      name: "inline values and lists",
      argv: [
        "--base-url=http://x.example",
        "--api-key=k",
        "--only=DEP-LIST-001, AUTH",
        "--skip",
        "fuzz",
        "--seed",
        "42",
      ],
      env: {},
      want: { only: ["DEP-LIST-001", "AUTH"], skip: ["fuzz"], seed: 42 },
    },
    {
      name: "a boolean flag with an explicit value beats env",
      argv: ["--base-url", "http://x.example", "--api-key", "k", "--read-only=false", "--quiet"],
      env: { CONFORMANCE_READ_ONLY: "true" },
      want: { readOnly: false, quiet: true },
    },
    {
      name: "reporting flags: repeated -H / --header, max response time, HAR, unexercised, skipped share",
      argv: [
        "--base-url=http://x.example",
        "--api-key=k",
        "-H",
        "X-Trace: a:b",
        "--header=X-Team:  core ",
        "--max-response-time",
        "250",
        "--har",
        "/tmp/run.har",
        "--fail-on-unexercised",
        "--warn-skipped-percent=20",
      ],
      env: { CONFORMANCE_HEADER: "X-Env: 1" },
      want: {
        headers: { "X-Trace": "a:b", "X-Team": "core" },
        maxResponseTimeMs: 250,
        har: "/tmp/run.har",
        failOnUnexercised: true,
        warnSkippedPercent: 20,
      },
    },
    {
      name: "headers from the environment (one per line) and defaults of the reporting flags",
      argv: ["--base-url=http://x.example", "--api-key=k"],
      env: { CONFORMANCE_HEADER: "X-One: 1\nX-Two: 2\n" },
      want: { headers: { "X-One": "1", "X-Two": "2" }, failOnUnexercised: false, warnSkippedPercent: 50 },
    },
    {
      name: "headers in a config file as an object",
      argv: ["--config", "c.json"],
      env: {},
      file: { baseUrl: "http://f.example", apiKey: "k", headers: { "X-From-File": "yes" }, "max-response-time": 900 },
      want: { headers: { "X-From-File": "yes" }, maxResponseTimeMs: 900 },
    },
    {
      name: "the provisioning delay from the environment, a flag beating it",
      argv: ["--base-url=http://x.example", "--api-key=k"],
      env: { CONFORMANCE_SETTLE_MS: "90000" },
      want: { settleMs: 90_000 },
    },
    {
      name: "the provisioning delay as a flag",
      argv: ["--base-url=http://x.example", "--api-key=k", "--settle-ms", "0"],
      env: { CONFORMANCE_SETTLE_MS: "90000" },
      want: { settleMs: 0 },
    },
    {
      name: "the rate-limit budgets' defaults and no pace (D-380)",
      argv: ["--base-url=http://x.example", "--api-key=k"],
      env: {},
      want: { retryBudgetMs: 30_000, retryTotalMs: 600_000, maxRps: undefined, operationPaths: {} },
    },
    {
      name: "the rate-limit budgets, the pace and operation 4's path as flags (D-380, D-382)",
      argv: [
        "--base-url=http://x.example",
        "--api-key=k",
        "--retry-budget",
        "5",
        "--retry-total=60",
        "--max-rps",
        "20",
        "--operation-path",
        "listManagedCodehostRepositories=GET /m/{integration_id}/r",
      ],
      env: {},
      want: {
        retryBudgetMs: 5000,
        retryTotalMs: 60_000,
        maxRps: 20,
        operationPaths: { listManagedCodehostRepositories: { method: "GET", path: "/m/{integration_id}/r" } },
      },
    },
    {
      name: "the run's budget and the answers' bounds by default (D-460..D-463)",
      argv: ["--base-url=http://x.example", "--api-key=k"],
      env: {},
      want: { maxResponseValues: 500_000, runDeadlineMs: 1_800_000, minTransferRate: 4096, maxSlowAnswers: 10 },
    },
    {
      name: "the run's budget and the answers' bounds as flags and variables (D-460..D-463)",
      argv: ["--base-url=http://x.example", "--api-key=k", "--run-deadline", "5", "--max-slow-answers=0"],
      env: { CONFORMANCE_MAX_RESPONSE_VALUES: "5000", CONFORMANCE_MIN_TRANSFER_RATE: "0" },
      want: { maxResponseValues: 5000, runDeadlineMs: 5000, minTransferRate: 0, maxSlowAnswers: 0 },
    },
    {
      name: "operation 4's path in a config file as an object (D-382)",
      argv: ["--config", "c.json"],
      env: {},
      file: {
        baseUrl: "http://f.example",
        apiKey: "k",
        operationPaths: { listManagedCodehostRepositories: "GET /m/{integration_id}" },
      },
      want: { operationPaths: { listManagedCodehostRepositories: { method: "GET", path: "/m/{integration_id}" } } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { config } = resolveConfig(c.argv, c.env, c.file === undefined ? undefined : file(c.file));
      expect(config).toMatchObject(c.want);
    });
  }
});

describe("resolveConfig rejects bad configuration with a one-line reason", () => {
  const cases: { name: string; argv: string[]; want: RegExp }[] = [
    { name: "no base url", argv: ["--api-key", "k"], want: /--base-url is required/ },
    { name: "no api key", argv: ["--base-url", "http://x"], want: /--api-key is required/ },
    { name: "relative url", argv: ["--base-url", "x.example", "--api-key", "k"], want: /not an absolute URL/ },
    { name: "ftp url", argv: ["--base-url", "ftp://x", "--api-key", "k"], want: /http or https/ },
    {
      name: "bad hosting",
      argv: ["--base-url", "http://x", "--api-key", "k", "--hosting", "onprem"],
      want: /--hosting/,
    },
    { name: "bad level", argv: ["--base-url", "http://x", "--api-key", "k", "--level", "may"], want: /--level/ },
    {
      name: "bad uuid",
      argv: ["--base-url", "http://x", "--api-key", "k", "--integration-id", "42"],
      want: /must be a UUID/,
    },
    {
      name: "unknown flag",
      argv: ["--base-url", "http://x", "--api-key", "k", "--colour"],
      want: /unknown flag --colour/,
    },
    { name: "missing value", argv: ["--base-url", "--api-key", "k"], want: /--base-url needs a value/ },
    { name: "missing value at the end", argv: ["--api-key", "k", "--base-url"], want: /--base-url needs a value/ },
    { name: "a positional argument", argv: ["--api-key", "k", "http://x"], want: /unexpected argument 'http:\/\/x'/ },
    {
      name: "a bad boolean value",
      argv: ["--base-url", "http://x", "--api-key", "k", "--stateless=maybe"],
      want: /--stateless must be true or false/,
    },
    {
      name: "same keys",
      argv: ["--base-url", "http://x", "--api-key", "k", "--other-api-key", "k"],
      want: /must differ/,
    },
    {
      name: "bad seed",
      argv: ["--base-url", "http://x", "--api-key", "k", "--seed", "abc"],
      want: /--seed must be an integer/,
    },
    {
      name: "a negative provisioning delay",
      argv: ["--base-url", "http://x", "--api-key", "k", "--settle-ms", "-1"],
      want: /--settle-ms/,
    },
    {
      name: "a header without a colon",
      argv: ["--base-url", "http://x", "--api-key", "k", "-H", "X-Trace"],
      want: /--header must be 'Name: value'/,
    },
    {
      name: "a header with a bad name",
      argv: ["--base-url", "http://x", "--api-key", "k", "--header", "X Trace: 1"],
      want: /--header must be 'Name: value'/,
    },
    {
      name: "a max response time of zero",
      argv: ["--base-url", "http://x", "--api-key", "k", "--max-response-time", "0"],
      want: /--max-response-time must be between 1 and 600000/,
    },
    {
      name: "an operation whose path the interface shows",
      argv: ["--base-url", "http://x", "--api-key", "k", "--operation-path", "listDeployments=GET /d"],
      want: /--operation-path: listDeployments is not an operation whose path the interface spec leaves open/,
    },
    {
      name: "a pace of zero",
      argv: ["--base-url", "http://x", "--api-key", "k", "--max-rps", "0"],
      want: /--max-rps must be between 1 and 100000/,
    },
    {
      name: "a run deadline of zero",
      argv: ["--base-url", "http://x", "--api-key", "k", "--run-deadline", "0"],
      want: /--run-deadline must be between 1 and 604800/,
    },
    {
      name: "a bound of values too small for any page",
      argv: ["--base-url", "http://x", "--api-key", "k", "--max-response-values", "10"],
      want: /--max-response-values must be between 1000 and 100000000/,
    },
    {
      name: "a negative count of slow answers",
      argv: ["--base-url", "http://x", "--api-key", "k", "--max-slow-answers", "-1"],
      want: /--max-slow-answers must be between 0 and 1000000/,
    },
    {
      name: "a skipped share above 100",
      argv: ["--base-url", "http://x", "--api-key", "k", "--warn-skipped-percent", "101"],
      want: /--warn-skipped-percent must be between 0 and 100/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let error: unknown;
      try {
        resolveConfig(c.argv, {});
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(c.want);
      expect((error as Error).message).not.toContain("\n");
    });
  }

  it("reports an unreadable config file", () => {
    expect(() =>
      resolveConfig(["--config", "missing.json"], {}, () => {
        throw new Error("ENOENT");
      }),
    ).toThrow(/cannot read config file missing.json/);
  });
});

describe("--help and --list", () => {
  it("need no other flag", () => {
    expect(resolveConfig(["--help"], {})).toMatchObject({ help: true, list: false });
    expect(resolveConfig(["-h"], {})).toMatchObject({ help: true, list: false });
    expect(resolveConfig(["--list"], {})).toMatchObject({ help: false, list: true });
  });
});

describe("envName and publicConfig", () => {
  it("maps flags to variables", () => {
    expect([envName("base-url"), envName("other-api-key"), envName("read-only")]).toEqual([
      "CONFORMANCE_BASE_URL",
      "CONFORMANCE_OTHER_API_KEY",
      "CONFORMANCE_READ_ONLY",
    ]);
  });
  it("never exposes keys", () => {
    const { config } = resolveConfig(
      ["--base-url", "http://x", "--api-key", "secret-main", "--other-api-key", "secret-other"],
      {},
    );
    const text = JSON.stringify(publicConfig(config));
    expect(text).not.toContain("secret-main");
    expect(text).not.toContain("secret-other");
  });
  it("redacts every header given with -H (D-392)", () => {
    const { config } = resolveConfig(
      ["--base-url", "http://x", "--api-key", "k", "-H", "Authorization: Bearer tok-123", "-H", "X-Team: core"],
      {},
    );
    expect(publicConfig(config).headers).toEqual({ Authorization: "[REDACTED]", "X-Team": "[REDACTED]" });
  });
});

describe("the fetch option of a program (D-360)", () => {
  const base = { baseUrl: "http://target.invalid", apiKey: "k" };
  it("keeps the function, which no report shows", () => {
    const send: typeof fetch = async () => new Response("");
    const config = configFromObject({ ...base, fetch: send });
    expect(config.fetch).toBe(send);
    expect(publicConfig(config)).not.toHaveProperty("fetch");
  });
  it("leaves it out when none is given", () => {
    expect(configFromObject(base)).not.toHaveProperty("fetch");
  });
  it("refuses a value that is no function", () => {
    expect(() => configFromObject({ ...base, fetch: "http" as unknown as typeof fetch })).toThrow(ConfigError);
  });
});
