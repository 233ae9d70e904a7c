/**
 * What one answer to a setup request says (D-485): an input is wrong only on a 401, 403 or 404 of the operation it
 * selects, the target unreachable only on a connection-level failure; any other answer is the checks' to judge.
 */

/** One answer to a setup request: its status, or the code of the failure that left no answer to read. */
export type SetupAnswer = { status: number } | { failure: string };

/** wrong-input: exit 2 naming the flag; unreachable: exit 2 naming --base-url; proceed: the run goes on and judges. */
export type SetupVerdict = "wrong-input" | "unreachable" | "proceed";

/**
 * Failures of the connection itself: refused, reset before any byte (undici's "other side closed"), no such name,
 * no route, no answer in time. A framing error (an `HPE_*` parser code) is an answer, badly sent: judged, never setup.
 */
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "ETIMEDOUT",
  "timeout",
]);

/** Whether a transport failure's code says the connection failed (not that the answer was malformed). */
export function connectionFailed(code: string | undefined): boolean {
  return code !== undefined && connectionCodes.has(code);
}

/** The statuses by which an answer says the input that selected the operation is wrong. */
const wrongInputStatuses = new Set([401, 403, 404]);

/** The verdict on one setup answer. */
export function setupVerdict(answer: SetupAnswer): SetupVerdict {
  if ("failure" in answer) return connectionFailed(answer.failure) ? "unreachable" : "proceed";
  return wrongInputStatuses.has(answer.status) ? "wrong-input" : "proceed";
}
