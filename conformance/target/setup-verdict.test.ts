/** Tests of the verdict on one setup answer (D-485): which answers call an input wrong, the target unreachable, or neither. */
import { describe, expect, it } from "vitest";
import { type SetupAnswer, type SetupVerdict, setupVerdict } from "./setup-verdict.js";

describe("setupVerdict", () => {
  const cases: { given: string; answer: SetupAnswer; want: SetupVerdict }[] = [
    { given: "a 401", answer: { status: 401 }, want: "wrong-input" },
    { given: "a 403", answer: { status: 403 }, want: "wrong-input" },
    { given: "a 404", answer: { status: 404 }, want: "wrong-input" },
    { given: "a 200", answer: { status: 200 }, want: "proceed" },
    { given: "a 204", answer: { status: 204 }, want: "proceed" },
    { given: "a 307 redirect", answer: { status: 307 }, want: "proceed" },
    { given: "a 302 redirect", answer: { status: 302 }, want: "proceed" },
    { given: "a 400", answer: { status: 400 }, want: "proceed" },
    { given: "a 405", answer: { status: 405 }, want: "proceed" },
    { given: "a 500", answer: { status: 500 }, want: "proceed" },
    { given: "a 503", answer: { status: 503 }, want: "proceed" },
    { given: "a refused connection", answer: { failure: "ECONNREFUSED" }, want: "unreachable" },
    { given: "a reset before any byte", answer: { failure: "UND_ERR_SOCKET" }, want: "unreachable" },
    { given: "a reset", answer: { failure: "ECONNRESET" }, want: "unreachable" },
    { given: "an unknown host name", answer: { failure: "ENOTFOUND" }, want: "unreachable" },
    { given: "a name server that failed", answer: { failure: "EAI_AGAIN" }, want: "unreachable" },
    { given: "no answer in time", answer: { failure: "timeout" }, want: "unreachable" },
    {
      given: "Content-Length with Transfer-Encoding",
      answer: { failure: "HPE_UNEXPECTED_CONTENT_LENGTH" },
      want: "proceed",
    },
    { given: "a status line that does not parse", answer: { failure: "HPE_INVALID_CONSTANT" }, want: "proceed" },
    { given: "a failure without a known code", answer: { failure: "terminated" }, want: "proceed" },
  ];
  for (const c of cases) it(c.given, () => expect(setupVerdict(c.answer)).toBe(c.want));
});
