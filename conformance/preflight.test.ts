/** Tests of the preflight's verdict on the probe answers: which flag the one line names, or none. */
import { describe, expect, it } from "vitest";
import { diagnose, type ProbeAnswer } from "./preflight.js";

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
    { given: "a wrong key", answers: [json(401), json(401)], want: /401, 401: .*check --api-key$/ },
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
