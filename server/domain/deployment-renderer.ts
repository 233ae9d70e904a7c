/** The port through which a store renders the deployment texts it keeps (D-83): implemented by the presenters, handed to the store where it is created. */
import type { DeploymentRecord } from "./records.js";

/** One stored row of a page: its text and what decides whether that text is still current. */
export interface StoredText {
  text: string;
  status: unknown;
  readyUs: number;
  latestRevisionId: string | null;
}

export interface DeploymentRenderer {
  /** The JSON text of a deployment as stored (its stored status, not one derived from the time). */
  text(record: DeploymentRecord): string;
  /** The text once provisioning has ended: READY, the latest revision active, updated at the ready time. */
  readyText(text: string, latestRevisionId: string | null, readyUs: number): string;
  /** A page's stored texts as of nowUs, joined with commas. */
  joinedAsOf(rows: StoredText[], nowUs: number): { joined: string; count: number };
}
