/** The bytes D-282 counts, as the suite counts them: what one deployment stores beyond its bounded fields. */

/** At most this many bytes in `source_config`, `source_revision_config` and `secret_references` together (D-282). */
export const maxStoredConfigBytes = 65_536;

/** The bytes the bound counts in a create body: each counted member as compact JSON text in UTF-8. */
export function storedBytes(body: Record<string, unknown>): number {
  return ["source_config", "source_revision_config", "secret_references"]
    .filter((member) => body[member] !== undefined)
    .reduce((sum, member) => sum + Buffer.byteLength(JSON.stringify(body[member])), 0);
}
