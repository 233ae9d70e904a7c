/** D-53 in SQL, once for both SQL adapters (the memory store and the layers above apply `provisionedBy` of server/domain/records.ts): a row stored AWAITING_DATABASE reads as READY from its ready time on. */

/** The rows whose provisioning has ended by the time bound at `now` (a placeholder: `?` or `$n`) but whose READY is not stored yet. */
export function provisionedSql(now: string): string {
  return `(status = 'AWAITING_DATABASE' AND ready_us <= ${now})`;
}

/** The rows still provisioning at the time bound at `now`. */
export function stillProvisioningSql(now: string): string {
  return `(status = 'AWAITING_DATABASE' AND ready_us > ${now})`;
}
