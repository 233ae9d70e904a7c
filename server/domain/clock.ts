/** The one clock of the server (microseconds since the epoch): injected into the services, the provisioning sweep and the stores (D-211). */

/** Now, in microseconds since the epoch. */
export type Clock = () => number;

/** The wall clock with microseconds: created_at stays distinct within a tenant (D-08). */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}
