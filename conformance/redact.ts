/** Redaction of keys and secrets in recorded exchanges (D-54/D-55: no secret in any output). */

export const REDACTED = "[REDACTED]";

/** Header names whose values are credentials. */
const secretHeaders = new Set(["x-api-key", "authorization", "cookie", "set-cookie", "proxy-authorization"]);

/** JSON fields whose values are secrets: an OAuth client secret, a deployment secret value. */
const secretFields = new Set(["client_secret", "value", "api_key", "apiKey", "password", "token"]);

/** Headers with credential values replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = secretHeaders.has(name.toLowerCase()) ? REDACTED : value;
  return out;
}

/** A JSON value with every secret field replaced (deeply); a leaked secret still shows as present. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = secretFields.has(k) && typeof v === "string" ? REDACTED : redactJson(v);
    return out;
  }
  return value;
}

/** A body text with secret JSON fields replaced; non-JSON text is returned as is, with known secrets masked. */
export function redactBody(text: string, knownSecrets: string[] = []): string {
  let out = text;
  try {
    out = JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    // not JSON: fall through to literal masking
  }
  for (const secret of knownSecrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}
