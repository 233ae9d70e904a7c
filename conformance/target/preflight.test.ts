/** Tests of the preflight's verdict on the probe answers: which flag the one line names, or none. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { resolveConfig } from "../cli/run-config.js";
import { diagnose, PreflightError, type ProbeAnswer, preflight } from "./preflight.js";

const json = (status: number): ProbeAnswer => ({ status, json: true });
const base = { baseUrl: "http://127.0.0.1:8080" };

describe("diagnose", () => {
  const cases: {
    given: string;
    config?: { tenantId?: string };
    answers: ProbeAnswer[];
    withoutTenant?: ProbeAnswer;
    want: RegExp | undefined;
  }[] = [
    { given: "the interface taking the key", answers: [json(200), json(200)], want: undefined },
    { given: "one list refused, one served", answers: [json(403), json(200)], want: undefined },
    { given: "a server error is judged by the checks", answers: [json(500), json(500)], want: undefined },
    { given: "nothing listening", answers: [{ unreachable: "ECONNREFUSED" }, json(200)], want: /check --base-url/ },
    {
      given: "the paths unknown (…/api)",
      answers: [json(404), json(404)],
      want: /does not serve the interface.*--base-url/,
    },
    {
      given: "an HTML page for every path",
      answers: [
        { status: 200, json: false },
        { status: 200, json: false },
      ],
      want: /without a JSON body\): check --base-url/,
    },
    {
      given: "an empty list answered 204 without a body is judged by the checks",
      answers: [
        { status: 204, json: false },
        { status: 204, json: false },
      ],
      want: undefined,
    },
    { given: "a wrong key", answers: [json(401), json(401)], want: /401, 401: .*check --api-key$/ },
    {
      given: "a base URL that redirects elsewhere (D-391)",
      answers: [
        { status: 307, json: false, location: "http://elsewhere.example/v2/auth/providers\x1b[2J" },
        { status: 307, json: false, location: "http://elsewhere.example/v2/deployments" },
      ],
      want: /redirects \(307, 307\) to http:\/\/elsewhere\.example\/v2\/auth\/providers\\x1b\[2J; the suite follows no redirect.*check --base-url/,
    },
    {
      given: "a tenant the key may not use",
      config: { tenantId: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60" },
      answers: [json(403), json(403)],
      withoutTenant: json(200),
      want: /check --tenant-id$/,
    },
    {
      given: "a wrong key with a tenant",
      config: { tenantId: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60" },
      answers: [json(401), json(401)],
      withoutTenant: json(401),
      want: /check --api-key \(and --tenant-id\)$/,
    },
  ];
  for (const c of cases)
    it(c.given, () => {
      const got = diagnose({ ...base, ...c.config }, c.answers, c.withoutTenant);
      if (c.want === undefined) expect(got).toBeUndefined();
      else expect(got).toMatch(c.want);
      // one line, whatever the verdict
      expect(got ?? "").not.toContain("\n");
    });
});

const known = "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c65";
const unknown = "11111111-1111-4111-8111-111111111111";

/** A target that sends its JSON as text/plain, knows one integration of each kind holding one repository, and refuses the unknown tenant. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "";
    const repos = [operation("listCodehostRepositories"), operation("listManagedCodehostRepositories")].some(
      (op) => path === op.path.replace("{integration_id}", known),
    );
    const listed = path === operation("listOAuthProviders").path || path === operation("listDeployments").path;
    res.statusCode = req.headers["x-tenant-id"] === unknown ? 403 : repos || listed ? 200 : 404;
    res.setHeader("content-type", "text/plain");
    res.end(repos ? '[{"id":"r"}]' : path === operation("listDeployments").path ? '{"resources":[],"offset":0}' : "[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("preflight against a target", () => {
  const cases: { given: string; flags: string[]; want: RegExp | undefined }[] = [
    { given: "JSON under text/plain is run and judged, not refused", flags: [], want: undefined },
    {
      given: "known integrations",
      flags: ["--integration-id", known, "--managed-integration-id", known],
      want: undefined,
    },
    {
      given: "an unknown --integration-id",
      flags: ["--integration-id", unknown],
      want: /^--integration-id is wrong: 1111.*unknown integration \(operation 3 answered 404.*\nfix --integration-id or leave it out/,
    },
    {
      given: "an unknown --managed-integration-id",
      flags: ["--managed-integration-id", unknown],
      want: /^--managed-integration-id is wrong: .*operation 4/,
    },
    {
      given: "an --other-tenant-id the key cannot reach, beside a right id",
      flags: ["--integration-id", known, "--other-tenant-id", unknown],
      want: /^--other-tenant-id is wrong: .*cannot reach it \(403\)\nfix --other-tenant-id or/,
    },
  ];
  for (const c of cases)
    it(c.given, async () => {
      const config = resolveConfig(["--base-url", url, "--api-key", "k", ...c.flags], {}).config;
      const outcome = await preflight(config).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (c.want === undefined) expect(outcome).toBeUndefined();
      else {
        expect(outcome).toBeInstanceOf(PreflightError);
        expect((outcome as Error).message).toMatch(c.want);
      }
    });
});
