/** The Deployment response record (interface spec: Deployment) from a stored deployment: the contract's record it keeps, with its times (D-401). */
import type { Deployment } from "../../contract/schemas.js";
import type { DeploymentRecord } from "../domain/records.js";
import { isoFromMicros } from "./timestamps.js";

export function presentDeployment(record: DeploymentRecord): Deployment {
  return {
    ...record.deployment,
    created_at: isoFromMicros(record.createdUs),
    updated_at: isoFromMicros(record.updatedUs),
  };
}
