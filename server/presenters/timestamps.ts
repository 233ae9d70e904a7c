/** RFC 3339 date-times with microseconds (interface spec: date-time); microseconds keep created_at distinct within a tenant (D-08). */

export function isoFromMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const micros = String(us % 1000).padStart(3, "0");
  return new Date(ms).toISOString().replace("Z", `${micros}Z`);
}
