/** Tests of the inputs the preflight and the doctor judge: the room a target shows, and the other key told from a server that ignores keys (D-383). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../cli/run-config.js";
import { otherKey, providersPerRun, room } from "./inputs.js";

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

/**
 * A target for the other key (D-383): `mode` says how it tells keys apart. `strict` serves keys "a" (org A) and "b"
 * (org B, or A again with `sameOrg`), `ignores` serves any key or none as org A, `noTenant` lists deployments without
 * tenant_id; a 5xx is `broken`, a 307 `redirects` (D-485).
 */
function keyTarget(mode: "strict" | "sameOrg" | "ignores" | "noTenant" | "broken" | "redirects") {
  return createServer((req, res) => {
    const key = req.headers["x-api-key"];
    if (mode === "redirects" && key === "b") {
      res.writeHead(307, { Location: "/elsewhere" }).end();
      return;
    }
    if (mode === "broken" && key === "b") {
      res.statusCode = 500;
      res.end("{}");
      return;
    }
    const known = key === "a" || key === "b";
    if (!known && mode !== "ignores") {
      res.statusCode = 401;
      res.end("{}");
      return;
    }
    const org = key === "b" && mode !== "sameOrg" && mode !== "ignores" ? "org-b" : "org-a";
    const tenant = org === "org-a" ? "11111111-1111-4111-8111-111111111111" : "22222222-2222-4222-8222-222222222222";
    res.setHeader("content-type", "application/json");
    if (req.url?.startsWith("/v2/deployments"))
      res.end(
        JSON.stringify({ resources: [mode === "noTenant" ? { id: "d" } : { id: "d", tenant_id: tenant }], offset: 1 }),
      );
    else res.end(JSON.stringify(mode === "noTenant" ? [{ id: "p" }] : [{ id: "p", organization_id: org }]));
  });
}

describe("otherKey rules out the server before it calls the input wrong (D-383)", () => {
  const cases: { mode: Parameters<typeof keyTarget>[0]; state: string; detail: RegExp }[] = [
    { mode: "strict", state: "ok", detail: /another organization/ },
    { mode: "sameOrg", state: "wrong", detail: /a key of the same organization \(org-a\)/ },
    { mode: "ignores", state: "unchecked", detail: /a made-up key is served too.*auth and isolation checks/ },
    { mode: "noTenant", state: "unchecked", detail: /carry no organization_id or tenant_id/ },
    { mode: "broken", state: "unchecked", detail: /answered 500: it says nothing about this input/ },
    { mode: "redirects", state: "unchecked", detail: /answered 307: it says nothing about this input/ },
  ];
  for (const c of cases)
    it(c.mode, async () => {
      const target = keyTarget(c.mode);
      await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
      try {
        const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
        const config = resolveConfig(["--base-url", base, "--api-key", "a", "--other-api-key", "b"], {}).config;
        const verdict = await otherKey(config);
        expect(verdict.state).toBe(c.state);
        expect(verdict.detail).toMatch(c.detail);
      } finally {
        await new Promise<void>((resolve) => target.close(() => resolve()));
      }
    });
});
