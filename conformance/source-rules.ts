/** The per-source table of D-48 as data: R required, O optional, F forbidden, with a schema-valid sample value per field. */
import type { Source } from "./data.js";

type Rule = "R" | "O" | "F";

/** Field path (`source_config.x`, `source_revision_config.x` or a top-level field) → rule per source (D-48). */
export const perSourceRules: Record<string, Record<Source, Rule>> = {
  "source_config.integration_id": row("R F F F F"),
  "source_config.repo_url": row("R F F F F"),
  "source_revision_config.repo_ref": row("R F F F F"),
  "source_config.build_on_push": row("O F F F F"),
  "source_revision_config.graph_config_path": row("R F F R F"),
  "source_revision_config.image_uri": row("F R R F F"),
  "source_revision_config.source_tarball_path": row("F F F R F"),
  "source_config.resource_spec": row("F O F F F"),
  "source_config.listener_id": row("F O F F F"),
  "source_config.listener_config": row("F O F F F"),
  "source_config.custom_url": row("F O F F F"),
  secret_references: row("F O F F F"),
  "source_config.install_command": row("O F F O F"),
  "source_config.build_command": row("O F F O F"),
};

/** One table row in the column order codehost, external_container, internal_container, internal_source, internal_template. */
function row(cells: string): Record<Source, Rule> {
  const [codehost, external_container, internal_container, internal_source, internal_template] = cells.split(
    " ",
  ) as Rule[];
  return { codehost, external_container, internal_container, internal_source, internal_template } as Record<
    Source,
    Rule
  >;
}

const samples: Record<string, unknown> = {
  integration_id: "00000000-0000-4000-8000-0000000000cf",
  repo_url: "https://codehost.example/conformance/app",
  repo_ref: "main",
  build_on_push: false,
  graph_config_path: "graph.json",
  image_uri: "registry.example.com/conformance/app:1.2.3",
  source_tarball_path: "uploads/conformance.tar.gz",
  resource_spec: {},
  listener_id: "00000000-0000-4000-8000-0000000000ce",
  listener_config: {},
  custom_url: "https://app.example.com",
  secret_references: [{ name: "CF_REF", secret_name: "cf-secret", secret_key: "token" }],
  install_command: "npm ci",
  build_command: "npm run build",
};

/** A value of the field that passes the schema, so only the per-source rule can refuse it. */
export function ruleSample(path: string): unknown {
  return samples[path.split(".").pop()!];
}
