/** The answer checks of `deployment-client/validate` (D-332): the contract's own examples pass; a broken body, an undocumented status and a non-JSON body reject with an AnswerError naming the pointer. */

import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { contractFormats } from "../generated/answer-formats.js";
import { createServiceClient, unwrap } from "../generated/client.js";
import document from "../generated/openapi.json" with { type: "json" };
import { AnswerError, validateAnswers } from "../generated/validate.js";

const listExample = document.paths["/v2/deployments"].get.responses["200"].content["application/json"].examples[
  "First page"
].value as { resources: Array<Record<string, unknown>>; offset: number };

/** A client whose every request is answered with `status` and `body` (a string is sent as it is). */
function answering(status: number, body: unknown, checked = true) {
  const client = createServiceClient({
    baseUrl: "http://service.test",
    apiKey: "k",
    fetch: async () =>
      new Response(typeof body === "string" ? body : JSON.stringify(body), {
        status,
        headers: { "content-type": status < 400 ? "application/json" : "application/problem+json" },
      }),
  });
  return checked ? validateAnswers(client) : client;
}

const list = (client: ReturnType<typeof answering>) => unwrap(client.GET("/v2/deployments"));
const withFirst = (change: (deployment: Record<string, unknown>) => void) => {
  const copy = structuredClone(listExample);
  change(copy.resources[0]!);
  return copy;
};

/** The AnswerError a call rejects with. */
async function answerError(call: Promise<unknown>): Promise<AnswerError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnswerError);
  return error as AnswerError;
}

describe("validateAnswers", () => {
  it("passes the contract's own example of a list page", async () => {
    expect(listExample.resources.length).toBeGreaterThan(0);
    expect(await list(answering(200, listExample))).toEqual(listExample);
  });

  it("names the pointer of a value the contract does not allow", async () => {
    const error = await answerError(
      list(
        answering(
          200,
          withFirst((d) => Object.assign(d, { status: "SLEEPING" })),
        ),
      ),
    );
    expect(error.pointer).toBe("/resources/0/status");
    expect(error.operationId).toBe("listDeployments");
    expect(error.message).toBe(
      "listDeployments answered 200, which breaks the contract at /resources/0/status: must be equal to one of the allowed values",
    );
  });

  it("names a missing required field in the pointer", async () => {
    const error = await answerError(
      list(
        answering(
          200,
          withFirst((d) => delete d.name),
        ),
      ),
    );
    expect(error.pointer).toBe("/resources/0/name");
  });

  it("refuses a status the operation does not document, and a body that is not JSON", async () => {
    expect((await answerError(list(answering(418, { title: "teapot" })))).reason).toMatch(/documents no answer/);
    expect((await answerError(list(answering(200, "<html>")))).reason).toBe("the body is not JSON");
  });

  it("checks nothing on a client it was not given", async () => {
    const broken = withFirst((d) => Object.assign(d, { status: "SLEEPING" }));
    expect(await list(answering(200, broken, false))).toEqual(broken);
  });
});

describe("the formats of the answer checks", () => {
  it("judge date-times as the contract's format policy does", () => {
    const samples = [
      "2026-01-31T10:00:00Z",
      "2026-01-31t10:00:00.123+02:00",
      "2024-02-29T23:59:60Z",
      "2026-02-29T10:00:00Z",
      "2026-13-01T10:00:00Z",
      "2026-01-31T10:00:00",
      "2026-01-31 10:00:00-0130",
      "2026-01-31T24:00:00Z",
      "2026-01-31T23:59:60+01:00",
      "2026-01-31T22:59:60-01:00",
      "not a date",
    ];
    const judge = (format: { validate: (value: never) => boolean }) => samples.map((s) => format.validate(s as never));
    expect(judge(contractFormats["date-time"]!)).toEqual(judge(fullFormats["date-time"] as never));
  });
});
