/** Tests that the JUnit XML is well formed and carries one testcase per check, parsed back with a strict parser. */
import { describe, expect, it } from "vitest";
import type { RunResult } from "../runner/result.js";
import { renderJunit, xmlEscape } from "./junit.js";

/** A small strict XML parser: elements, attributes, text, declarations; throws on malformed input. */
function parseXml(text: string): XmlElement {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i}: ${text.slice(i, i + 40)}`);
  };
  const skipSpace = () => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  if (text.startsWith("<?xml")) i = text.indexOf("?>") + 2;
  const entity = (s: string) => {
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(s)) fail("bad entity");
    if (s.includes("<")) fail("raw < in text");
    return s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  };
  const element = (): XmlElement => {
    skipSpace();
    if (text[i] !== "<") fail("expected <");
    i++;
    const name = /^[A-Za-z_][\w.-]*/.exec(text.slice(i))?.[0] ?? fail("bad name");
    i += name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      skipSpace();
      if (text.startsWith("/>", i)) {
        i += 2;
        return { name, attrs, children: [], text: "" };
      }
      if (text[i] === ">") {
        i++;
        break;
      }
      const m = /^([A-Za-z_][\w.-]*)="([^"]*)"/.exec(text.slice(i)) ?? fail("bad attribute");
      if (m[1]! in attrs) fail("duplicate attribute");
      attrs[m[1]!] = entity(m[2]!);
      i += m[0].length;
    }
    const children: XmlElement[] = [];
    let content = "";
    for (;;) {
      if (i >= text.length) fail(`unclosed <${name}>`);
      if (text.startsWith(`</${name}>`, i)) {
        i += name.length + 3;
        return { name, attrs, children, text: entity(content) };
      }
      if (text.startsWith("</", i)) fail(`mismatched close inside <${name}>`);
      if (text[i] === "<") children.push(element());
      else content += text[i++];
    }
  };
  const root = element();
  skipSpace();
  if (i !== text.length) fail("trailing content");
  return root;
}

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const result: RunResult = {
  runId: "abc123",
  seed: 7,
  target: "http://127.0.0.1:1",
  startedAt: "2026-11-21T00:00:00.000Z",
  finishedAt: "2026-11-21T00:00:01.000Z",
  durationMs: 1000,
  config: {},
  summary: { MUST: { pass: 1, fail: 1, skip: 0 }, SHOULD: { pass: 0, fail: 0, skip: 1 } },
  created: [],
  errors: [],
  warnings: [],
  coverage: { operations: [], decisions: [], unexercised: [] },
  exitCode: 1,
  problems: [],
  verdicts: [
    {
      id: "DEP-LIST-004",
      level: "MUST",
      tags: ["listDeployments"],
      statement: "limit=0 is rejected with a 4xx",
      specRef: 'interface-spec: 5 <limit> & "range"',
      area: "deployments-list",
      status: "pass",
      durationMs: 12,
    },
    {
      id: "PROV-CREATE-007",
      level: "MUST",
      tags: ["createOAuthProvider"],
      statement: "client_secret is not returned",
      specRef: "interface-spec",
      area: "providers",
      status: "fail",
      durationMs: 30,
      failure: {
        message: 'the response carries a "client_secret" field <&>',
        exchange: {
          request: {
            method: "POST",
            url: "http://h/v2/auth/providers?a=1&b=2",
            headers: { "X-Api-Key": "[REDACTED]" },
            body: '{"client_secret":"[REDACTED]"}',
            keyRef: "main",
          },
          response: {
            status: 200,
            headers: { "content-type": "application/json" },
            body: '{"client_secret":"[REDACTED]","x":"\u0001"}',
          },
          json: {},
          durationMs: 3,
        },
        curl: `curl -i -X POST 'http://h' -H "X-Api-Key: $CONFORMANCE_API_KEY"`,
      },
    },
    {
      id: "ISO-001",
      level: "SHOULD",
      tags: ["isolation"],
      statement: "isolation",
      specRef: "D-13 to D-15",
      area: "isolation",
      status: "skip",
      durationMs: 0,
      skipReason: "needs --other-api-key",
    },
  ],
};

describe("renderJunit", () => {
  const root = parseXml(renderJunit(result));
  const cases = root.children.flatMap((s) => s.children.filter((c) => c.name === "testcase"));

  it("is a testsuites document with one testsuite per level", () => {
    expect(root.name).toBe("testsuites");
    expect(root.children.map((s) => s.attrs.name)).toEqual(["conformance.MUST", "conformance.SHOULD"]);
  });
  it("has one testcase per check, classname level.area", () => {
    expect(cases.map((c) => [c.attrs.classname, c.attrs.name?.split(" ")[0]])).toEqual([
      ["MUST.deployments-list", "DEP-LIST-004"],
      ["MUST.providers", "PROV-CREATE-007"],
      ["SHOULD.isolation", "ISO-001"],
    ]);
  });
  it("carries the failure message and details, escaped and parsed back intact", () => {
    const failure = cases[1]!.children.find((c) => c.name === "failure")!;
    expect(failure.attrs.message).toBe('the response carries a "client_secret" field <&>');
    expect(failure.text).toContain("POST http://h/v2/auth/providers?a=1&b=2");
    expect(failure.text).toContain("curl -i -X POST");
    expect(failure.text).not.toContain("\u0001");
  });
  it("marks skipped checks with the reason", () => {
    expect(cases[2]!.children.find((c) => c.name === "skipped")?.attrs.message).toBe("needs --other-api-key");
  });
  it("counts failures and skips per suite", () => {
    expect(root.children.map((s) => [s.attrs.tests, s.attrs.failures, s.attrs.skipped])).toEqual([
      ["2", "1", "0"],
      ["1", "0", "1"],
    ]);
  });
});

describe("xmlEscape", () => {
  it("escapes markup and drops characters XML forbids", () => {
    expect(xmlEscape(`<a b="c">&'\u0000`)).toBe("&lt;a b=&quot;c&quot;&gt;&amp;&apos;");
  });
});
