/** Tests of the command line before any request: help on every subcommand, unknown flags and selection tokens (exit 2 with the closest match). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./conformance-command.js";

const target = ["--base-url", "http://127.0.0.1:9", "--api-key", "k"];

describe("main before any request", () => {
  afterEach(() => vi.restoreAllMocks());
  const cases: { given: string[]; code: number; out: RegExp }[] = [
    { given: ["--help"], code: 0, out: /^Usage: deployment-conformance --base-url/ },
    { given: ["-h"], code: 0, out: /^Usage: deployment-conformance --base-url/ },
    { given: ["doctor", "--help"], code: 0, out: /^Usage: deployment-conformance doctor/ },
    { given: ["doctor", "-h"], code: 0, out: /^Usage: deployment-conformance doctor/ },
    { given: ["replay", "--help"], code: 0, out: /^Usage: deployment-conformance replay/ },
    { given: ["replay", "DEP-LIST-004", "-h"], code: 0, out: /^Usage: deployment-conformance replay/ },
    { given: ["--base-ur", "x"], code: 2, out: /unknown flag --base-ur \(did you mean --base-url\?\): see --help/ },
    { given: ["doctor", "--apikey", "x"], code: 2, out: /unknown flag --apikey \(did you mean --api-key\?\)/ },
    {
      given: [...target, "--only", "DEP-LSIT"],
      code: 2,
      out: /--only DEP-LSIT matches no check id, area or tag \(did you mean DEP-LIST\?\)/,
    },
    { given: [...target, "--skip", "isolatoin"], code: 2, out: /--skip isolatoin .*did you mean isolation\?/ },
  ];
  for (const c of cases)
    it(c.given.join(" "), async () => {
      const printed: string[] = [];
      vi.spyOn(console, "log").mockImplementation((text: string) => void printed.push(text));
      vi.spyOn(console, "error").mockImplementation((text: string) => void printed.push(text));
      expect(await main(c.given, {})).toBe(c.code);
      expect(printed.join("\n").replace(/^conformance( doctor)?: /, "")).toMatch(c.out);
    });
});
