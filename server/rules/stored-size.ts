/** The bound on what one deployment stores beyond its bounded fields (D-282), so that a page of 100 weighs at most about 10 MB. */
import type { DeploymentCreate, ProblemFieldError } from "../../contract/schemas.js";

/** `source_config`, `source_revision_config` and `secret_references` together, each as compact JSON text in UTF-8 (D-282). */
export const maxStoredConfigBytes = 64 * 1024;

/** The members of a create body the bound counts: every other member is a bounded field (D-31, D-32, D-116). */
const countedMembers = ["source_config", "source_revision_config", "secret_references"] as const;

/** A 422 field error naming the largest counted member when the three together exceed maxStoredConfigBytes. */
export function checkStoredSize(body: DeploymentCreate): ProblemFieldError[] {
  const sizes = countedMembers.map((member) => ({
    member,
    bytes: body[member] === undefined ? 0 : Buffer.byteLength(JSON.stringify(body[member])),
  }));
  const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
  if (total <= maxStoredConfigBytes) return [];
  const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return [
    {
      pointer: `/${largest.member}`,
      detail: `is ${largest.bytes} bytes as JSON; source_config, source_revision_config and secret_references together may hold at most ${maxStoredConfigBytes} bytes (they hold ${total})`,
    },
  ];
}
