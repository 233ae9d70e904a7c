/**
 * A deployment's response representation as stored JSON text (D-83): rendered once at create, its
 * state fields (status, active_revision_id, updated_at) first so that provisioning rewrites only
 * that head, and a page is the texts joined without parsing or serializing any row again.
 */
import type { DeploymentRecord } from "../storage/records.js";
import { presentDeployment } from "./deployment.js";
import { isoFromMicros } from "./timestamps.js";

/** The JSON text of a deployment as stored (its stored status, not one derived from the time). */
export function deploymentText(record: DeploymentRecord): string {
  const { status, active_revision_id, updated_at, ...rest } = presentDeployment(record);
  return `{"status":${JSON.stringify(status)},"active_revision_id":${JSON.stringify(active_revision_id)},"updated_at":${JSON.stringify(updated_at)},${JSON.stringify(rest).slice(1)}`;
}

const updatedAtKey = '"updated_at":"';

/** The text once provisioning has ended: READY, the latest revision active, updated at the ready time (as toDeploymentRecord derives it). */
export function readyDeploymentText(text: string, latestRevisionId: string | null, readyUs: number): string {
  // The head's updated_at is the first one in the text; an ISO date-time holds no quote.
  const valueStart = text.indexOf(updatedAtKey) + updatedAtKey.length;
  const headEnd = text.indexOf('"', valueStart) + 1;
  return `{"status":"READY","active_revision_id":${JSON.stringify(latestRevisionId)},"updated_at":"${isoFromMicros(readyUs)}"${text.slice(headEnd)}`;
}

/** Whether a stored deployment is READY at nowUs although its stored text still says AWAITING_DATABASE (D-53). */
function provisionedSince(status: unknown, readyUs: number, nowUs: number): boolean {
  return status === "AWAITING_DATABASE" && readyUs <= nowUs;
}

/** One stored row of a page: its text and what decides whether that text is still current. */
interface StoredText {
  text: string;
  status: unknown;
  readyUs: number;
  latestRevisionId: string | null;
}

/**
 * A page's stored texts as of nowUs, joined with commas as UTF-8 bytes: a deployment whose provisioning
 * ended after its text was stored (the sweep has not stored READY yet) gets the READY head here, as the
 * sweep will write it (D-83).
 */
export function joinedTextsAsOf(rows: StoredText[], nowUs: number): { joined: Buffer; count: number } {
  const texts = rows.map(({ text, status, readyUs, latestRevisionId }) =>
    provisionedSince(status, readyUs, nowUs) ? readyDeploymentText(text, latestRevisionId, readyUs) : text,
  );
  return { joined: Buffer.from(texts.join(",")), count: texts.length };
}

const pageHead = Buffer.from('{"resources":[');

/**
 * A page of the list answer from stored texts joined with commas: `{"resources":[…],"offset":n}`
 * with nothing parsed, assembled as bytes (the database gives them as bytes: no string to make and
 * encode again, which for a 100-item page cost about as much as reading it).
 */
export function deploymentPageText(joinedTexts: Buffer, offset: number): Buffer {
  return Buffer.concat([pageHead, joinedTexts, Buffer.from(`],"offset":${offset}}`)]);
}
