/**
 * The format policy of every contract Ajv (D-78): ajv-formats' full formats, the canonical `uuid` and the OpenAPI
 * numeric formats. The standalone validators of generated/validators.ts refer to this object by name (D-88), so the
 * formats they check are exactly the ones a runtime-compiled validator checks.
 */
import type { Format } from "ajv";
import { fullFormats } from "ajv-formats/dist/formats.js";

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** The canonical textual form only (the contract's `uuid`): no `urn:uuid:` prefix, no braces. */
const canonicalUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Format name → definition, as added to every contract Ajv. */
export const contractFormats: Record<string, Format> = {
  ...(fullFormats as Record<string, Format>),
  uuid: canonicalUuid,
  int32: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= int32.min && n <= int32.max },
  int64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) },
  float: { type: "number", validate: (n: number) => Number.isFinite(n) },
  double: { type: "number", validate: (n: number) => Number.isFinite(n) },
};
