/** Plain-text failure details shared by the JUnit and JSON reports. */

import type { Verdict } from "../runner/verdict.js";
import type { Exchange } from "../target/http-exchange.js";

/** One exchange as plain text: request line, headers and body, then status line, headers and body. */
export function exchangeText(ex: Exchange): string[] {
  const lines = [
    "request:",
    `${ex.request.method} ${ex.request.url}`,
    ...Object.entries(ex.request.headers).map(([k, val]) => `${k}: ${val}`),
  ];
  if (ex.request.body !== undefined) lines.push("", ex.request.body);
  lines.push(
    "",
    "response:",
    `HTTP ${ex.response.status}`,
    ...Object.entries(ex.response.headers).map(([k, val]) => `${k}: ${val}`),
    "",
    ex.response.body,
  );
  return lines;
}

/** Why the check failed, the request, the response and the curl command, as plain text. */
export function failureText(v: Verdict): string {
  const f = v.failure;
  if (!f) return "";
  const lines = [`why: ${f.message}`, `spec: ${v.specRef}`];
  if (f.exchange) lines.push("", ...exchangeText(f.exchange));
  if (f.curl) lines.push("", "reproduce:", f.curl);
  if (f.replay) lines.push("", "replay:", f.replay);
  return lines.join("\n");
}
