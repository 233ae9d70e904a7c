/** A request of a recorded conformance run as the differential test replays it (tools/differential/conformance-exchanges.json). */
export interface RecordedExchange {
  method: string;
  /** Path and query. */
  target: string;
  /** The headers sent, X-Api-Key left out (the run's report redacts it). */
  headers: Record<string, string>;
  /** Which key the run sent: its main (Acme's), its other (Globex's), a literal one of its own, or none. */
  keyRef: "main" | "other" | "literal" | "none";
  body?: string;
}
