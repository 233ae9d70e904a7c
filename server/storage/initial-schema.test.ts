/** The first migration is one definition: both dialects get the same tables, columns, constraints and indexes. */
import { describe, expect, it } from "vitest";
import { initialSchema } from "./initial-schema.js";

/** Table and index names with their column names, in order, from the compiled statements. */
function shape(statements: string): string[] {
  return statements
    .split(";\n")
    .map((statement) =>
      statement.replace(/ (integer|bigint|bigserial|boolean|text)\b/g, " <type>").replace(/ autoincrement/g, ""),
    );
}

describe("initial schema", () => {
  it("differs between the dialects only in the column types", () => {
    expect(shape(initialSchema("sqlite"))).toEqual(shape(initialSchema("postgres")));
  });

  it("keeps the per-tenant sequence and the constraints the store relies on", () => {
    const statements = initialSchema("postgres");
    for (const constraint of [
      "deployments_tenant_name",
      "deployments_tenant_seq",
      "oauth_providers_organization_provider_id",
      "tracing_projects_tenant_name",
    ]) {
      expect(statements).toContain(`constraint "${constraint}" unique`);
    }
    expect(statements).toContain(
      `create index "deployments_awaiting" on "deployments" ("ready_us") where "status" = 'AWAITING_DATABASE'`,
    );
  });
});
