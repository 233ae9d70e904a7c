/** Tests of the curl command rendering of a recorded request. */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../target/http-exchange.js";
import { printfFormat, shellQuote, toCurl } from "./curl.js";

describe("toCurl", () => {
  const cases: { name: string; given: RecordedRequest; want: string }[] = [
    {
      name: "GET with the main key",
      given: {
        method: "GET",
        url: "http://h/v2/deployments?limit=0",
        headers: { Accept: "application/json", "X-Api-Key": "[REDACTED]" },
        keyRef: "main" as const,
      },
      want: `curl -i -X GET 'http://h/v2/deployments?limit=0' -H 'Accept: application/json' -H "X-Api-Key: $CONFORMANCE_API_KEY"`,
    },
    {
      name: "POST with the other key and a body with a quote",
      given: {
        method: "POST",
        url: "http://h/v2/auth/providers",
        headers: { "X-Api-Key": "[REDACTED]", "Content-Type": "application/json" },
        body: `{"name":"O'Brien"}`,
        keyRef: "other" as const,
      },
      want: `curl -i -X POST 'http://h/v2/auth/providers' -H "X-Api-Key: $CONFORMANCE_OTHER_API_KEY" -H 'Content-Type: application/json' --data-binary '{"name":"O'\\''Brien"}'`,
    },
    {
      name: "no key",
      given: {
        method: "GET",
        url: "http://h/v2/deployments",
        headers: { Accept: "application/json" },
        keyRef: "none" as const,
      },
      want: `curl -i -X GET 'http://h/v2/deployments' -H 'Accept: application/json'`,
    },
    {
      name: "a literal wrong key is shown redacted, never as the configured key",
      given: { method: "GET", url: "http://h/x", headers: { "X-Api-Key": "[REDACTED]" }, keyRef: "literal" as const },
      want: `curl -i -X GET 'http://h/x' -H 'X-Api-Key: [REDACTED]'`,
    },
    {
      name: "with --auth-scheme bearer the main key is a bearer token (D-231)",
      given: {
        method: "GET",
        url: "http://h/x",
        headers: { Authorization: "[REDACTED]" },
        keyRef: "main" as const,
      },
      want: `curl -i -X GET 'http://h/x' -H "Authorization: Bearer $CONFORMANCE_API_KEY"`,
    },
    {
      name: "a redacted -H value is a shell variable, never the value (D-392)",
      given: { method: "GET", url: "http://h/x", headers: { "X-Gw-Token": "[REDACTED]" }, keyRef: "main" as const },
      want: `curl -i -X GET 'http://h/x' -H 'X-Gw-Token: '"$CONFORMANCE_HEADER_X_GW_TOKEN"`,
    },
    {
      name: "a body that is not UTF-8 is sent through printf, byte for byte",
      given: {
        method: "POST",
        url: "http://h/v2/deployments",
        headers: { "Content-Type": "application/json" },
        body: '{"name":"\\xff"}',
        bodyEscaped: true,
        keyRef: "none" as const,
      },
      want: `printf '{"name":"\\377"}' | curl -i -X POST 'http://h/v2/deployments' -H 'Content-Type: application/json' --data-binary @-`,
    },
  ];
  for (const c of cases) it(c.name, () => expect(toCurl(c.given)).toBe(c.want));
});

describe("printfFormat", () => {
  it.each([
    { given: [0x7b, 0xff, 0x7d], escaped: "{\\xff}" },
    { given: [0x5c, 0x78, 0x34, 0x31, 0xc0, 0xaf], escaped: "\\\\x41\\xc0\\xaf" },
    { given: [0x25, 0x73, 0x27, 0xed, 0xa0, 0x80], escaped: "%s'\\xed\\xa0\\x80" },
  ])("$escaped: printf writes the bytes $given", ({ given, escaped }) => {
    const written = execFileSync("sh", ["-c", `printf ${shellQuote(printfFormat(escaped))}`]);
    expect([...written]).toEqual(given);
  });
});

describe("shellQuote", () => {
  it("quotes single quotes for POSIX shells", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
