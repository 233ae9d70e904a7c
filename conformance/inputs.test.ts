/** Tests of the room the doctor reports: the providers held against a run's creates, and a quota header where the target shows one. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "./config.js";
import { providersPerRun, room } from "./inputs.js";

/** Answers the provider list with as many providers as the key's number, with a quota header for key `q`. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const key = String(req.headers["x-api-key"]);
    res.setHeader("content-type", "application/json");
    if (key === "q") res.setHeader("x-quota-remaining", "12");
    res.end(key === "object" ? "{}" : JSON.stringify(Array.from({ length: Number(key) || 2 }, (_, i) => ({ id: i }))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("room", () => {
  const cases: { key: string; state: string; detail: RegExp }[] = [
    {
      key: "5",
      state: "unchecked",
      detail: new RegExp(`^5 OAuth providers held; a run creates about ${providersPerRun}; the target shows no limit`),
    },
    { key: "q", state: "ok", detail: /^2 OAuth providers held; .*the target shows x-quota-remaining: 12$/ },
    { key: "object", state: "unchecked", detail: /^the provider list is not an array;/ },
  ];
  for (const c of cases)
    it(`key ${c.key}`, async () => {
      const verdict = await room(resolveConfig(["--base-url", url, "--api-key", c.key], {}).config);
      expect(verdict.flag).toBe("room");
      expect(verdict.state).toBe(c.state);
      expect(verdict.detail).toMatch(c.detail);
    });
});
