/** Plain-text failure details shared by the JUnit and JSON reports. */
import type { Verdict } from "../verdict.js";

/** Why the check failed, the request, the response and the curl command, as plain text. */
export function failureText(v: Verdict): string {
  const f = v.failure;
  if (!f) return "";
  const lines = [`why: ${f.message}`, `spec: ${v.specRef}`];
  const ex = f.exchange;
  if (ex) {
    lines.push(
      "",
      "request:",
      `${ex.request.method} ${ex.request.url}`,
      ...Object.entries(ex.request.headers).map(([k, val]) => `${k}: ${val}`),
    );
    if (ex.request.body !== undefined) lines.push("", ex.request.body);
    lines.push(
      "",
      "response:",
      `HTTP ${ex.response.status}`,
      ...Object.entries(ex.response.headers).map(([k, val]) => `${k}: ${val}`),
      "",
      ex.response.body,
    );
  }
  if (f.curl) lines.push("", "reproduce:", f.curl);
  return lines.join("\n");
}
