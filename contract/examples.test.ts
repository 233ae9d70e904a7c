/** Titled examples and the Prefer header as the mocks read them. */
import { describe, expect, it } from "vitest";
import { parsePrefer, preferredExample, requestExamples, responseExamples } from "./examples.js";
import { operation } from "./operations.js";

describe("parsePrefer", () => {
  const cases: Array<{ given: string | undefined; want: ReturnType<typeof parsePrefer> }> = [
    { given: undefined, want: {} },
    { given: "code=404", want: { code: 404 } },
    { given: 'example="Duplicate name"', want: { example: "Duplicate name" } },
    { given: "code=201, example=x", want: { code: 201, example: "x" } },
    { given: "delay=250; fault=reset", want: { delay: 250, fault: "reset" } },
    { given: "Code=abc", want: {} },
  ];
  it.each(cases)("$given", ({ given, want }) => expect(parsePrefer(given)).toEqual(want));
});

describe("examples of the contract", () => {
  it("lists every titled answer and request example of an operation", () => {
    const create = operation("createDeployment");
    expect(responseExamples(create).map((example) => `${example.status} ${example.title}`)).toContain(
      "409 Duplicate name",
    );
    expect(requestExamples(create).map((example) => example.title)).toContain("Codehost deployment");
  });

  it("finds the example a Prefer header asks for, and says when none fits", () => {
    const create = operation("createDeployment");
    expect(preferredExample(create, undefined)).toBeUndefined();
    expect(preferredExample(create, "code=409")).toMatchObject({ status: 409, mediaType: "application/problem+json" });
    expect(preferredExample(create, 'example="External container deployment"')).toMatchObject({ status: 201 });
    expect(preferredExample(create, "code=418")).toBeInstanceOf(Error);
  });
});
