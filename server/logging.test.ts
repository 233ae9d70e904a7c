/** The access line written without pino's serializer (D-86) is the line pino writes for the same fields. */
import { describe, expect, it } from "vitest";
import { accessLineWriter, createLogger } from "./logging.js";

function collect() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

describe("accessLineWriter", () => {
  it.each([
    { fields: { requestId: "abc-123" }, method: "GET", path: "/healthz", status: 200, operationId: undefined, ms: 0.1 },
    {
      fields: { requestId: "r", organizationId: 'o"rg', tenantId: "t\\n" },
      method: "POST",
      path: '/v2/deploy"ments\u2028',
      status: 422,
      operationId: "createDeployment",
      ms: 12.3,
    },
  ])("writes what pino writes for $path", ({ fields, method, path, status, operationId, ms }) => {
    const ours = collect();
    const theirs = collect();
    accessLineWriter(createLogger("info", ours.destination))!(fields, method, path, status, operationId, ms);
    createLogger("info", theirs.destination).info({ ...fields, method, path, status, operationId, ms }, "request");
    const parse = (line: string) => {
      const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      return rest;
    };
    expect(ours.lines).toHaveLength(1);
    expect(ours.lines[0]!.endsWith("\n")).toBe(true);
    expect(parse(ours.lines[0]!)).toEqual(parse(theirs.lines[0]!));
  });

  it("writes nothing when info lines are off", () => {
    expect(accessLineWriter(createLogger("warn", collect().destination))).toBeUndefined();
  });
});
