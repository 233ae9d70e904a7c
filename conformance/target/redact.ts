/**
 * Redaction of keys and secrets in everything the suite writes or prints (D-54/D-55, D-392): credential headers,
 * the fields the contract marks secret, and every value the user gave as a secret (the keys, the `-H` values)
 * wherever it appears, a target's echo of it included.
 */
import { secretFields } from "../../contract/index.js";

export const REDACTED = "[REDACTED]";

/** Header names whose values are credentials. */
const secretHeaders = new Set(["x-api-key", "authorization", "cookie", "set-cookie", "proxy-authorization"]);

/** Fields redacted besides the contract's secret ones (D-390): credential names a target may leak under. */
const credentialFields = ["api_key", "apiKey", "password", "token"];

/** JSON fields whose values are secrets: those the contract marks `x-secret` (client_secret, a secret's value), and credentials. */
const redactedFields = new Set([...secretFields, ...credentialFields]);

/** A user secret shorter than this is masked in its own header only: masking "on" or "1" everywhere would garble the reports. */
const minMaskedLength = 4;

/** Headers with credential values replaced, and the values of `userHeaders` (names given with -H) too. */
export function redactHeaders(
  headers: Record<string, string>,
  userHeaders: readonly string[] = [],
  knownSecrets: readonly string[] = [],
): Record<string, string> {
  const given = new Set(userHeaders.map((name) => name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[name] = secretHeaders.has(lower) || given.has(lower) ? REDACTED : maskLiterals(value, knownSecrets);
  }
  return out;
}

/** A JSON value with every secret field replaced (deeply); a leaked secret still shows as present. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = redactedFields.has(k) && typeof v === "string" ? REDACTED : redactJson(v);
    return out;
  }
  return value;
}

/** `"field": "…"` of a secret field in text that is not whole JSON (a cut body): its string value. */
const secretFieldInText = new RegExp(
  `("(?:${[...redactedFields].map((f) => f.replace(/[^A-Za-z0-9_]/g, "")).join("|")})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`,
  "g",
);

/** A body text with secret JSON fields replaced (in cut JSON too) and known secrets masked. */
export function redactBody(text: string, knownSecrets: readonly string[] = []): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactText(text, knownSecrets);
  }
  return redactParsed(parsed, knownSecrets);
}

/** A body already parsed, as redactBody shows it: serialized with secret fields replaced and known secrets masked. */
function redactParsed(json: unknown, knownSecrets: readonly string[] = []): string {
  return maskLiterals(JSON.stringify(redactJson(json)), knownSecrets);
}

/** A body's text with secret fields replaced and known secrets masked, read as text, never parsed (a cut or too large body). */
export function redactText(text: string, knownSecrets: readonly string[] = []): string {
  return maskLiterals(text.replace(secretFieldInText, `$1"${REDACTED}"`), knownSecrets);
}

/** The forms a secret takes in text: as given, JSON-escaped, percent-encoded. */
function literalForms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** `text` with every known secret (of at least 4 characters) masked, in each form it may be echoed in. */
export function maskLiterals(text: string, knownSecrets: readonly string[]): string {
  let out = text;
  for (const secret of knownSecrets)
    if (secret.length >= minMaskedLength) for (const form of literalForms(secret)) out = out.split(form).join(REDACTED);
  return out;
}

/** What the user gave as a secret: the keys and every `-H` value (D-392). */
export function userSecrets(config: {
  apiKey: string;
  otherApiKey?: string;
  headers: Record<string, string>;
}): string[] {
  return [config.apiKey, ...(config.otherApiKey ? [config.otherApiKey] : []), ...Object.values(config.headers)];
}

/** A copy of `value` with every known secret masked in every string it holds (keys of objects included). */
export function maskDeep<T>(value: T, knownSecrets: readonly string[]): T {
  const mask = (node: unknown): unknown => {
    if (typeof node === "string") return maskLiterals(node, knownSecrets);
    if (Array.isArray(node)) return node.map(mask);
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[maskLiterals(k, knownSecrets)] = mask(v);
      return out;
    }
    return node;
  };
  return mask(value) as T;
}
