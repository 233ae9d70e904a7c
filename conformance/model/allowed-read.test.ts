/** Which reads LAW-020 judges: a GET of a list operation whose every parameter holds a value the contract takes. */
import { describe, expect, it } from "vitest";
import { isAllowedRead } from "./allowed-read.js";

const base = "http://127.0.0.1:1";
const id = "0b0f3c55-1111-4222-8333-444455556666";
const read = (path: string, more: { method?: string; headers?: Record<string, string>; body?: string } = {}) => ({
  method: more.method ?? "GET",
  path,
  url: `${base}${path}`,
  headers: more.headers ?? {},
  body: more.body,
});

describe("isAllowedRead", () => {
  const cases: { given: ReturnType<typeof read>; want: boolean }[] = [
    { given: read("/v2/deployments"), want: true },
    { given: read("/v2/auth/providers"), want: true },
    { given: read(`/v1/integrations/codehost/${id}/repos`), want: true },
    { given: read(`/v2/deployments?limit=100&offset=0&tag_value_ids=${id},${id}`), want: true },
    { given: read("/v2/deployments?status=READY,UNKNOWN&deployment_type=prod&remote_reconciled=false"), want: true },
    { given: read("/v2/deployments?name_contains=&image_version=1.0.0"), want: true },
    { given: read("/v2/deployments?name_contains=%C3%A9t%C3%A9"), want: true },
    { given: read("/v2/deployments", { headers: { "x-tenant-id": id } }), want: true },
    // values the contract refuses, or spellings judged elsewhere: not judged
    { given: read("/v2/deployments?limit=0"), want: false },
    { given: read("/v2/deployments?limit=101"), want: false },
    { given: read("/v2/deployments?limit=007"), want: false },
    { given: read("/v2/deployments?limit="), want: false },
    { given: read("/v2/deployments?limit=5&limit=5"), want: false },
    { given: read("/v2/deployments?status=RUNNING"), want: false },
    { given: read("/v2/deployments?deployment_ids=not-a-uuid"), want: false },
    { given: read(`/v2/deployments?deployment_ids=${id},`), want: false },
    { given: read("/v2/deployments?name_contains=a+b"), want: false },
    { given: read("/v2/deployments?name_contains=%E0%A4%A"), want: false },
    { given: read("/v2/deployments?cf_unknown=1"), want: false },
    { given: read("/v2/deployments?LIMIT=5"), want: false },
    { given: read("/v1/integrations/codehost/not-a-uuid/repos"), want: false },
    { given: read("/v2/deployments", { headers: { "x-tenant-id": "nope" } }), want: false },
    // not reads
    { given: read("/v2/deployments", { method: "POST" }), want: false },
    { given: read("/v2/deployments", { body: "{}" }), want: false },
    { given: read("/v2/no-such-path"), want: false },
  ];
  it.each(cases)("$given.method $given.path → $want", ({ given, want }) => {
    expect(isAllowedRead(given)).toBe(want);
  });
});
