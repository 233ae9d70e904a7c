/**
 * A deployment's response representation as stored JSON text (D-83): rendered once at create, its
 * state fields (status, active_revision_id, updated_at) first so that provisioning rewrites only
 * that head, and a page is the texts joined without parsing or serializing any row again.
 */

import type { DeploymentList } from "../../contract/schemas.js";
import type { DeploymentRenderer, StoredText } from "../domain/deployment-renderer.js";
import { type DeploymentRecord, provisionedBy } from "../domain/records.js";
import { presentDeployment } from "./deployment.js";
import { JsonStream } from "./json-stream.js";
import { isoFromMicros } from "./timestamps.js";

/** The JSON text of a deployment as stored (its stored status, not one derived from the time). */
function deploymentText(record: DeploymentRecord): string {
  const { status, active_revision_id, updated_at, ...rest } = presentDeployment(record);
  return `{"status":${JSON.stringify(status)},"active_revision_id":${JSON.stringify(active_revision_id)},"updated_at":${JSON.stringify(updated_at)},${JSON.stringify(rest).slice(1)}`;
}

const updatedAtKey = '"updated_at":"';

/** The text once provisioning has ended: READY, the latest revision active, updated at the ready time (as deploymentAsOf derives it). */
function readyDeploymentText(text: string, latestRevisionId: string | null, readyUs: number): string {
  // The head's updated_at is the first one in the text; an ISO date-time holds no quote.
  const valueStart = text.indexOf(updatedAtKey) + updatedAtKey.length;
  const headEnd = text.indexOf('"', valueStart) + 1;
  return `{"status":"READY","active_revision_id":${JSON.stringify(latestRevisionId)},"updated_at":"${isoFromMicros(readyUs)}"${text.slice(headEnd)}`;
}

/**
 * A page's stored texts as of nowUs, joined with commas: a deployment whose provisioning
 * ended after its text was stored (the sweep has not stored READY yet) gets the READY head here, as the
 * sweep will write it (D-83).
 */
function joinedTextsAsOf(rows: StoredText[], nowUs: number): { joined: string; count: number } {
  const texts = rows.map(({ text, status, readyUs, latestRevisionId }) =>
    provisionedBy(status, readyUs, nowUs) ? readyDeploymentText(text, latestRevisionId, readyUs) : text,
  );
  return { joined: texts.join(","), count: texts.length };
}

/** The texts a store keeps, rendered here and handed to the store where it is created. */
export const deploymentRenderer: DeploymentRenderer = {
  text: deploymentText,
  readyText: readyDeploymentText,
  joinedAsOf: joinedTextsAsOf,
};

/**
 * A page of the list answer from stored texts joined with commas: `{"resources":[…],"offset":n}`
 * with nothing parsed. It is a string, not bytes (D-83): a string lives on V8's heap and the memory
 * that encodes it at send is freed as soon as it is written, where each Buffer of a page was freed only
 * at the next garbage collection, all at once, and glibc gave that memory back to the system and
 * faulted it in again (11-55 page faults per 100-item page).
 */
export function deploymentPageText(joinedTexts: string, offset: number): string {
  return `{"resources":[${joinedTexts}],"offset":${offset}}`;
}

/** A heavy page (D-350): the same text as `deploymentPageText`, its deployments a slice at a time; `close` frees its slot. */
export function deploymentPageStream(
  slices: AsyncIterable<string>,
  offset: number,
  close: () => void,
): JsonStream<DeploymentList> {
  return new JsonStream('{"resources":[', slices, `],"offset":${offset}}`, close);
}
