/** A NewDeployment for store tests (Storage): an internal_template deployment with fresh ids, any field overridden. */
import { randomUUID } from "node:crypto";
import type { NewDeployment } from "../domain/records.js";

export function newDeployment(tenantId: string, name: string, extra: Partial<NewDeployment> = {}): NewDeployment {
  return {
    id: randomUUID(),
    tenantId,
    name,
    source: "internal_template",
    sourceConfig: {},
    sourceRevisionConfig: {},
    secrets: [],
    secretReferences: null,
    imageVersion: null,
    listenerId: null,
    revisionId: randomUUID(),
    tracingProjectId: randomUUID(),
    readyAfterUs: 1_000_000,
    ...extra,
  };
}
