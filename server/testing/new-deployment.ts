/** A NewDeployment for store tests (Storage): an internal_template deployment with fresh ids, any field overridden. */
import { randomUUID } from "node:crypto";
import type { DeploymentFields, NewDeployment } from "../domain/records.js";

interface Overrides extends Partial<Omit<NewDeployment, "deployment">> {
  deployment?: Partial<DeploymentFields>;
}

export function newDeployment(tenantId: string, name: string, extra: Overrides = {}): NewDeployment {
  const { deployment, ...rest } = extra;
  return {
    deployment: {
      id: randomUUID(),
      tenant_id: tenantId,
      name,
      source: "internal_template",
      source_config: {},
      source_revision_config: {},
      secrets: (extra.secrets ?? []).map(({ name }) => ({ name, value: "********" })),
      secret_references: null,
      image_version: null,
      latest_revision_id: randomUUID(),
      ...deployment,
    },
    secrets: [],
    tracingProjectId: randomUUID(),
    readyAfterUs: 1_000_000,
    ...rest,
  };
}
