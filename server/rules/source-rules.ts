/** Per-source rules of deployment creation (D-48): which fields each source requires, allows, or forbids (400). */

import type { DeploymentCreate, DeploymentSource } from "../../contract/schemas.js";
import { HttpProblem } from "../errors/http-problem.js";

/** A field of the create body that a source rule talks about, by its place in the body. */
type RuleField =
  | "source_config.integration_id"
  | "source_config.repo_url"
  | "source_config.build_on_push"
  | "source_config.custom_url"
  | "source_config.resource_spec"
  | "source_config.listener_id"
  | "source_config.listener_config"
  | "source_config.install_command"
  | "source_config.build_command"
  | "source_revision_config.repo_ref"
  | "source_revision_config.graph_config_path"
  | "source_revision_config.image_uri"
  | "source_revision_config.source_tarball_path"
  | "secret_references";

/** What a source needs and accepts; every field outside both lists must be null or absent. */
interface SourceRule {
  required: RuleField[];
  optional: RuleField[];
}

/**
 * The per-source table. Buildable sources (codehost, internal_source) need graph_config_path and
 * may carry install and build commands; container sources need image_uri; only external_container
 * takes the runtime settings (resource_spec, listener, custom_url, secret_references).
 */
export const sourceRules: Record<DeploymentSource, SourceRule> = {
  codehost: {
    required: [
      "source_config.integration_id",
      "source_config.repo_url",
      "source_revision_config.repo_ref",
      "source_revision_config.graph_config_path",
    ],
    optional: ["source_config.build_on_push", "source_config.install_command", "source_config.build_command"],
  },
  external_container: {
    required: ["source_revision_config.image_uri"],
    optional: [
      "source_config.custom_url",
      "source_config.resource_spec",
      "source_config.listener_id",
      "source_config.listener_config",
      "secret_references",
    ],
  },
  internal_container: {
    required: ["source_revision_config.image_uri"],
    optional: [],
  },
  internal_source: {
    required: ["source_revision_config.source_tarball_path", "source_revision_config.graph_config_path"],
    optional: ["source_config.install_command", "source_config.build_command"],
  },
  internal_template: {
    required: [],
    optional: [],
  },
};

const allFields: RuleField[] = [
  "source_config.integration_id",
  "source_config.repo_url",
  "source_config.build_on_push",
  "source_config.custom_url",
  "source_config.resource_spec",
  "source_config.listener_id",
  "source_config.listener_config",
  "source_config.install_command",
  "source_config.build_command",
  "source_revision_config.repo_ref",
  "source_revision_config.graph_config_path",
  "source_revision_config.image_uri",
  "source_revision_config.source_tarball_path",
  "secret_references",
];

/** One broken rule: the JSON Pointer of the field and what is wrong with it. */
export interface RuleViolation {
  field: string;
  pointer: string;
  detail: string;
}

/** The value of a field of the (schema-valid) body. */
function fieldValue(body: DeploymentCreate, field: RuleField): unknown {
  const [group, name] = field.split(".") as [string, string | undefined];
  if (name === undefined) return (body as unknown as Record<string, unknown>)[group];
  return (body as unknown as Record<string, Record<string, unknown> | undefined>)[group]?.[name];
}

function pointerOf(field: string): string {
  return `/${field.split(".").join("/")}`;
}

/** Every rule of the table the body breaks, in table order. */
export function checkSourceRules(body: DeploymentCreate): RuleViolation[] {
  const rule = sourceRules[body.source];
  const violations: RuleViolation[] = [];
  for (const field of rule.required) {
    const value = fieldValue(body, field);
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      violations.push({ field, pointer: pointerOf(field), detail: `is required for '${body.source}' source` });
    }
  }
  for (const field of allFields) {
    if (rule.required.includes(field) || rule.optional.includes(field)) continue;
    const value = fieldValue(body, field);
    if (value === undefined || value === null) continue;
    // graph_config_path has its own wording in the production service: it must be null.
    const detail =
      field === "source_revision_config.graph_config_path"
        ? `must be null for '${body.source}' source`
        : `is not applicable to '${body.source}' source`;
    violations.push({ field, pointer: pointerOf(field), detail });
  }
  return violations;
}

/** The 400 of broken source rules, naming each field (D-47: "Source configuration error: '<field>' <detail>"). */
export function sourceRuleProblem(violations: RuleViolation[], headline?: string): HttpProblem {
  const first = violations[0]!;
  const detail =
    `Source configuration error: ${headline ?? `'${first.field}' ${first.detail}`}` +
    (violations.length > 1 ? ` (and ${violations.length - 1} more; see errors)` : "");
  return new HttpProblem(
    "sourceRule",
    detail,
    violations.map((violation) => ({ pointer: violation.pointer, detail: violation.detail })),
  );
}
