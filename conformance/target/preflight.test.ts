/** Tests of the preflight's verdict on the probe answers: which flag the one line names, or none. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation } from "../../contract/index.js";
import { resolveConfig } from "../cli/run-config.js";
import { diagnose, PreflightError, type ProbeAnswer, preflight } from "./preflight.js";

const status = (status: number): ProbeAnswer => ({ status });
const base = { baseUrl: "http://127.0.0.1:8080" };

describe("diagnose (D-485: an input is wrong only when the answers say so)", () => {
  const cases: {
    given: string;
    config?: { tenantId?: string };
    answers: ProbeAnswer[];
    withoutTenant?: ProbeAnswer;
    want: RegExp | undefined;
  }[] = [
    { given: "the interface taking the key", answers: [status(200), status(200)], want: undefined },
    { given: "one list refused, one served", answers: [status(403), status(200)], want: undefined },
    { given: "a server error is judged by the checks", answers: [status(500), status(500)], want: undefined },
    { given: "nothing listening", answers: [{ unreachable: "ECONNREFUSED" }, status(200)], want: /check --base-url/ },
    {
      given: "an answer with bad framing is judged by the checks",
      answers: [{ unreadable: "HPE_UNEXPECTED_CONTENT_LENGTH" }, { unreadable: "HPE_UNEXPECTED_CONTENT_LENGTH" }],
      want: undefined,
    },
    {
      given: "the paths unknown (…/api)",
      answers: [status(404), status(404)],
      want: /does not serve the interface \(its list operations answered 404\).*--base-url/,
    },
    { given: "one path unknown, one refused", answers: [status(404), status(401)], want: undefined },
    { given: "a 405 for every path is judged by the checks", answers: [status(405), status(405)], want: undefined },
    {
      given: "a 200 for every path (whatever its body) is judged",
      answers: [status(200), status(200)],
      want: undefined,
    },
    { given: "a wrong key", answers: [status(401), status(401)], want: /answered 401: .*check --api-key$/ },
    {
      given: "a base URL that redirects is judged by the checks (no request follows it, D-391)",
      answers: [status(307), status(307)],
      want: undefined,
    },
    {
      given: "a tenant the key may not use",
      config: { tenantId: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60" },
      answers: [status(403), status(403)],
      withoutTenant: status(200),
      want: /check --tenant-id$/,
    },
    {
      given: "a wrong key with a tenant",
      config: { tenantId: "7a2e3d4c-5b6a-4f9e-8d7c-1b2c3d4e5f60" },
      answers: [status(401), status(401)],
      withoutTenant: status(401),
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
/** An integration whose repositories the target answers 307, and one it answers 502: faults of the server, not the input. */
const redirected = "22222222-2222-4222-8222-222222222222";
const failing = "33333333-3333-4333-8333-333333333333";

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
    if (path.includes(redirected)) return res.writeHead(307, { Location: "/elsewhere" }).end();
    if (path.includes(failing)) return res.writeHead(502).end("bad gateway");
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
      given: "an integration whose listing is answered 307 is judged, not called wrong (D-485)",
      flags: ["--integration-id", redirected, "--managed-integration-id", redirected],
      want: undefined,
    },
    {
      given: "an integration whose listing is answered 502 is judged, not called wrong",
      flags: ["--integration-id", failing],
      want: undefined,
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
