/** Tests of answersOnWire: requests written together reach the target together, and each answer comes back in order. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../cli/run-config.js";
import { CheckSkip } from "../runner/check.js";
import { createContext } from "../runner/runtime.js";
import type { WireAnswer, WireConnection } from "../target/wire.js";
import { answersOnWire, closingGet, statusTally, type WireText } from "./wire-answers.js";

/** Requests the stand-in holds until `together` of them are in, so a test passes only when they arrive together. */
const together = 5;
let waiting: (() => void)[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/close") return req.socket.destroy();
    waiting.push(() => res.end(req.url));
    if (waiting.length === together) for (const answer of waiting.splice(0)) answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const context = (extra: object = {}) =>
  createContext(
    {
      ...resolveConfig(["--base-url", baseUrl, "--api-key", "k", "--timeout-ms", "2000"], {}).config,
      runId: "wa0001",
      seed: 1,
      ...extra,
    },
    new Map(),
    { id: "T-001", level: "SHOULD" },
  );
const get =
  (path: string): WireText =>
  (c) =>
    `GET ${path} HTTP/1.1\r\nHost: ${c.host}\r\nConnection: close\r\n\r\n`;

describe("answersOnWire", () => {
  it.each([
    {
      given: ["/a", "/b", "/c", "/d", "/e"],
      want: [
        ["200", "/a"],
        ["200", "/b"],
        ["200", "/c"],
        ["200", "/d"],
        ["200", "/e"],
      ],
    },
    {
      given: ["/a", "/close", "/b", "/c", "/d", "/e"],
      want: [
        ["200", "/a"],
        ["none", ""],
        ["200", "/b"],
        ["200", "/c"],
        ["200", "/d"],
        ["200", "/e"],
      ],
    },
  ])("$given", async ({ given, want }) => {
    waiting = [];
    const answers = await answersOnWire(context(), given.map(get));
    expect(answers.map((a) => [a ? String(a.status) : "none", a?.body ?? ""])).toEqual(want);
  });

  it("skips a run given a fetch function, which has no connection to write on", async () => {
    await expect(answersOnWire(context({ fetch }), [get("/a")])).rejects.toBeInstanceOf(CheckSkip);
  });
});

describe("closingGet", () => {
  it("asks for JSON with the run's key and closes its connection", () => {
    const text = closingGet(
      context(),
      "/v2/deployments?limit=1",
    )({ basePath: "/api", host: "h.example:8080" } as WireConnection);
    expect(text).toBe(
      "GET /api/v2/deployments?limit=1 HTTP/1.1\r\nHost: h.example:8080\r\nX-Api-Key: k\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
    );
  });
});

describe("statusTally", () => {
  const answer = (status: number): WireAnswer => ({ status, headers: {}, body: "" });
  it.each([
    { given: [], want: "" },
    { given: [answer(200), answer(429), answer(200)], want: "2 × 200, 1 × 429" },
    { given: [undefined, answer(503), undefined], want: "2 × none, 1 × 503" },
  ])("$want", ({ given, want }) => {
    expect(statusTally(given)).toBe(want);
  });
});
