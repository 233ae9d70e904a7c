/** Prism violations become the contract's field errors: pointers for body fields, parameter names otherwise (D-16). */
import { describe, expect, it } from "vitest";
import {
  fieldErrors,
  parseViolationsHeader,
  requestViolations,
  type Violation,
  validationProblem,
} from "./violations.js";

const v = (location: string[], message: string, code = "x"): Violation => ({
  location,
  severity: "Error",
  code,
  message,
});

describe("fieldErrors", () => {
  const cases: Array<{ name: string; given: Violation[]; want: ReturnType<typeof fieldErrors> }> = [
    {
      name: "missing body field becomes a pointer to it",
      given: [v(["body"], "Request body must have required property 'token_url'", "required")],
      want: [{ pointer: "/token_url", detail: "is required" }],
    },
    {
      name: "missing nested field",
      given: [
        v(["body", "source_config"], "Request body property source_config must have required property 'x'", "required"),
      ],
      want: [{ pointer: "/source_config/x", detail: "is required" }],
    },
    {
      name: "query parameter keeps its name, array index dropped",
      given: [
        v(
          ["query", "status", "1"],
          "Request query parameter status.1 must be equal to one of the allowed values: READY",
          "enum",
        ),
      ],
      want: [{ parameter: "status", detail: "must be equal to one of the allowed values: READY" }],
    },
    {
      name: "nullable field: the anyOf noise is dropped",
      given: [
        v(
          ["body", "source_config", "integration_id"],
          "Request body property source_config.integration_id must be string",
          "type",
        ),
        v(
          ["body", "source_config", "integration_id"],
          "Request body property source_config.integration_id must be null",
          "type",
        ),
        v(
          ["body", "source_config", "integration_id"],
          "Request body property source_config.integration_id must match a schema in anyOf",
          "anyOf",
        ),
      ],
      want: [{ pointer: "/source_config/integration_id", detail: "must be string" }],
    },
    {
      name: "pointer segments are escaped",
      given: [
        v(
          ["body", "source_config", "resource_spec", "labels", "a/b~c"],
          "Request body property source_config.resource_spec.labels.a/b~c must be string",
          "type",
        ),
      ],
      want: [{ pointer: "/source_config/resource_spec/labels/a~1b~0c", detail: "must be string" }],
    },
    {
      name: "header name in the document's spelling",
      given: [v(["header", "x-tenant-id"], 'Request header parameter x-tenant-id must match format "uuid"', "format")],
      want: [{ parameter: "X-Tenant-Id", detail: 'must match format "uuid"' }],
    },
  ];
  it.each(cases.map((entry) => [entry.name, entry] as const))("%s", (_name, entry) => {
    expect(fieldErrors(entry.given, (name) => (name === "x-tenant-id" ? "X-Tenant-Id" : name))).toEqual(entry.want);
  });
});

describe("parseViolationsHeader and requestViolations", () => {
  it("splits request from response violations and drops the request prefix", () => {
    const header = JSON.stringify([v(["request", "query", "limit"], "m1"), v(["response", "body", "offset"], "m2")]);
    expect(requestViolations(parseViolationsHeader(header)).map((violation) => violation.location)).toEqual([
      ["query", "limit"],
    ]);
  });

  it("keeps a header Prism truncated as one entry instead of failing", () => {
    expect(parseViolationsHeader("Too many violations! [{").map((violation) => violation.code)).toEqual(["truncated"]);
  });
});

describe("validationProblem", () => {
  it("counts the places and says where they are", () => {
    const problem = validationProblem([
      v(["query", "limit"], "Request query parameter limit must be >= 1"),
      v(["body"], "Request body must have required property 'name'"),
    ]);
    expect(problem).toEqual({
      type: "urn:deployment-service:problem:validation",
      title: "Request validation failed",
      status: 422,
      detail: "The request breaks the schema in 2 places; see errors.",
      errors: [
        { parameter: "limit", detail: "must be >= 1" },
        { pointer: "/name", detail: "is required" },
      ],
    });
  });
});
