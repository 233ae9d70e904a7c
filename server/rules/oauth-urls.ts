/** OAuth endpoint URLs (D-58): absolute https URLs, plain http only for loopback hosts, checked with the WHATWG URL parser. */
import { isIP } from "node:net";

/** What is wrong with the URL, or undefined when it is acceptable. The server never fetches it. */
export function checkOAuthUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username !== "" || url.password !== "") return "must not contain credentials";
  // RFC 6749 3.1 and 3.2: the endpoint URIs must not include a fragment.
  if (url.hash !== "" || value.includes("#")) return "must not contain a fragment";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:")
    return isLoopback(url.hostname) ? undefined : "must use https (http is allowed only for loopback hosts)";
  return "must be an https URL";
}

/** localhost, 127.0.0.0/8 and ::1 (decision D-58). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1";
  return false;
}

/** The field errors of a provider's `auth_url` and `token_url` (422, D-58). */
export function checkOAuthUrls(body: {
  auth_url: string;
  token_url: string;
}): Array<{ pointer: string; detail: string }> {
  return (["auth_url", "token_url"] as const).flatMap((field) => {
    const detail = checkOAuthUrl(body[field]);
    return detail ? [{ pointer: `/${field}`, detail }] : [];
  });
}
