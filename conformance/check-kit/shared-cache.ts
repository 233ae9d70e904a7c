/** Whether a shared cache may store an answer and serve it to another caller (RFC 9111; D-454). */

/** The directives of a Cache-Control field: lower-case names, each with its value (quotes dropped) or true. */
function directives(field: string | undefined): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (const part of (field ?? "").split(",")) {
    const [name, ...value] = part.split("=");
    const key = name?.trim().toLowerCase();
    if (key) out.set(key, value.length > 0 ? value.join("=").trim().replace(/^"|"$/g, "") : true);
  }
  return out;
}

const positive = (value: string | true | undefined) => typeof value === "string" && Number(value) > 0;

/**
 * Why a shared cache may keep this answer for callers other than the one whose key (sent in `keyHeader`) asked, or
 * undefined when it may not: no-store and private keep it out, a Vary naming the key header (or `*`) keys it by caller.
 * A request with Authorization is kept out unless public, s-maxage or must-revalidate lets it in (§3.5); any other key
 * header keeps nothing out, and a 200 with no freshness stated may get a heuristic one (§4.2.2).
 */
export function sharedCacheMayStore(headers: Record<string, string>, keyHeader: string): string | undefined {
  const cc = directives(headers["cache-control"]);
  if (cc.has("no-store") || cc.has("private")) return undefined;
  const vary = (headers.vary ?? "").split(",").map((v) => v.trim().toLowerCase());
  if (vary.includes("*") || vary.includes(keyHeader.toLowerCase())) return undefined;
  const authorized = keyHeader.toLowerCase() === "authorization";
  const letIn = cc.has("public") || cc.has("s-maxage") || cc.has("must-revalidate");
  if (authorized && !letIn) return undefined;
  if (cc.has("no-cache")) return undefined;
  const field =
    headers["cache-control"] === undefined ? "no Cache-Control" : `Cache-Control: ${headers["cache-control"]}`;
  if (positive(cc.get("s-maxage")) || positive(cc.get("max-age"))) return `${field} keeps it fresh for every caller`;
  if (cc.has("s-maxage") || cc.has("max-age")) return undefined;
  const expires = Date.parse(headers.expires ?? "");
  const date = Date.parse(headers.date ?? "") || Date.now();
  // an Expires that is no HTTP-date means already expired (RFC 9111 §5.3)
  if (headers.expires !== undefined)
    return headers.expires.endsWith("GMT") && expires > date ? `Expires ${headers.expires} keeps it fresh` : undefined;
  return `${field} and no Vary naming ${keyHeader}: a cache may give it a heuristic freshness (RFC 9111 §4.2.2)`;
}
