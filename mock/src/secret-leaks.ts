/**
 * Secrets in what the contract proxy sees (D-398): a field the contract marks `x-secret` showing a value (a
 * `client_secret` at all, a secret's `value` unmasked) or a credential the client sent echoed back is a breach
 * of the contract, reported as a response violation; a recording (`--record`) keeps neither.
 */
import type { IncomingHttpHeaders } from "node:http";
import { secretFields } from "../../contract/index.js";
import type { Violation } from "./violations.js";

/** Request headers whose values are credentials. */
const credentialHeaders = ["x-api-key", "authorization", "cookie", "proxy-authorization"];

/** A value shorter than this is not looked for in answers: a short text would be found everywhere. */
const minCredentialLength = 4;

/** What stands in a recording for a credential an answer echoed. */
const redacted = "[REDACTED]";

/** The credentials a request carried: its credential headers' values, and a bearer token alone. */
export function credentialsOf(headers: IncomingHttpHeaders): string[] {
  const found: string[] = [];
  for (const name of credentialHeaders) {
    const value = headers[name];
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      found.push(one.trim());
      const bearer = /^Bearer\s+(.+)$/i.exec(one.trim());
      if (bearer) found.push(bearer[1]!);
    }
  }
  return found.filter((value) => value.length >= minCredentialLength);
}

/** Whether a secret field's value shows the secret: anything but a mask of asterisks. */
const showsSecret = (value: unknown): boolean => typeof value === "string" && !/^\**$/.test(value);

/** The leaks of an answer: secret fields that show a value, credentials echoed in its body or headers. */
export function secretLeaks(body: unknown, headers: IncomingHttpHeaders, credentials: readonly string[]): Violation[] {
  const leaks: Violation[] = [];
  const leak = (location: string[], message: string): void => {
    leaks.push({ location: ["response", ...location], severity: "Error", code: "secret-leak", message });
  };
  const visit = (node: unknown, path: string[]): void => {
    if (typeof node === "string") {
      if (credentials.some((credential) => node.includes(credential)))
        leak(["body", ...path], "the answer echoes a credential the request sent");
    } else if (Array.isArray(node)) for (const [index, item] of node.entries()) visit(item, [...path, String(index)]);
    else if (node !== null && typeof node === "object")
      for (const [key, value] of Object.entries(node)) {
        if (secretFields.has(key) && showsSecret(value))
          leak(["body", ...path, key], `the answer shows ${key}, a field the contract keeps secret`);
        else visit(value, [...path, key]);
      }
  };
  visit(body, []);
  for (const [name, value] of Object.entries(headers))
    if (credentials.some((credential) => String(value).includes(credential)))
      leak(["header", name], "the answer echoes a credential the request sent");
  return leaks;
}

/** A copy of `value` without the fields the contract marks secret and with echoed credentials redacted. */
export function withoutSecrets<T>(value: T, credentials: readonly string[]): T {
  const strip = (node: unknown): unknown => {
    if (typeof node === "string") {
      let out = node;
      for (const credential of credentials) out = out.split(credential).join(redacted);
      return out;
    }
    if (Array.isArray(node)) return node.map(strip);
    if (node !== null && typeof node === "object")
      return Object.fromEntries(
        Object.entries(node)
          .filter(([key, field]) => !(secretFields.has(key) && showsSecret(field)))
          .map(([key, field]) => [key, strip(field)]),
      );
    return node;
  };
  return strip(value) as T;
}
