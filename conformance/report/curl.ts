/** Renders a recorded request as a curl command that reproduces it, for the output of a failing check. */
import type { RecordedRequest } from "../target/http-exchange.js";
import { REDACTED } from "../target/redact.js";

/** Single-quotes a value for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The shell variable a printed command refers to for a redacted header's value (D-392): `X-Gw-Token` → `$CONFORMANCE_HEADER_X_GW_TOKEN`. */
function headerVariable(name: string): string {
  return `$CONFORMANCE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** `-H`'s argument that sends a header with its value from `headerVariable` (the name quoted apart: a token may hold `$`). */
export function headerArgument(name: string): string {
  return `${shellQuote(`${name}: `)}"${headerVariable(name)}"`;
}

/**
 * A curl command for the request. The API key header refers to `$CONFORMANCE_API_KEY` (or
 * `$CONFORMANCE_OTHER_API_KEY`) instead of carrying the key; other redacted values stay redacted.
 */
export function toCurl(request: RecordedRequest): string {
  const parts = ["curl", "-i", "-X", request.method, shellQuote(request.url)];
  const names = Object.keys(request.headers).map((name) => name.toLowerCase());
  // with --auth-scheme bearer the key travels in Authorization (D-231)
  const bearerKey = !names.includes("x-api-key") && (request.keyRef === "main" || request.keyRef === "other");
  for (const [name, value] of Object.entries(request.headers)) {
    if (bearerKey && name.toLowerCase() === "authorization") {
      const variable = request.keyRef === "other" ? "$CONFORMANCE_OTHER_API_KEY" : "$CONFORMANCE_API_KEY";
      parts.push("-H", `"Authorization: Bearer ${variable}"`);
      continue;
    }
    if (name.toLowerCase() === "x-api-key") {
      const variable = request.keyRef === "other" ? "$CONFORMANCE_OTHER_API_KEY" : "$CONFORMANCE_API_KEY";
      // double quotes so the shell expands the variable
      parts.push(
        "-H",
        request.keyRef === "main" || request.keyRef === "other"
          ? `"X-Api-Key: ${variable}"`
          : shellQuote(`${name}: ${value}`),
      );
      continue;
    }
    if (name.toLowerCase() === "content-length") continue;
    // a redacted value (a -H value, a credential) is a shell variable the user sets, never the value
    parts.push("-H", value === REDACTED ? headerArgument(name) : shellQuote(`${name}: ${value}`));
  }
  if (request.body === undefined) return parts.join(" ");
  // bytes that are not UTF-8 go through printf, which writes each as sent (an octal escape is POSIX)
  if (request.bodyEscaped)
    return `printf ${shellQuote(printfFormat(request.body))} | ${[...parts, "--data-binary", "@-"].join(" ")}`;
  return [...parts, "--data-binary", shellQuote(request.body)].join(" ");
}

/** A printf format writing the bytes of an escaped body (\xNN a byte, \\ a backslash): octal escapes, % doubled. */
export function printfFormat(escaped: string): string {
  return escaped.replace(/\\x([0-9a-f]{2})|\\\\|%/g, (token, hex: string | undefined) =>
    hex ? `\\${Number.parseInt(hex, 16).toString(8).padStart(3, "0")}` : token === "%" ? "%%" : "\\\\",
  );
}
