/** The upper bounds on time of the fault modes (D-80, D-114, D-272), the same in every mock, on a port or in MSW. */

/** The longest `Prefer: delay=` honoured: a larger one waits this long. */
export const maxPreferDelayMs = 30_000;

/** How long a `Prefer: fault=timeout` request is held before it fails as a network error. */
export const timeoutHoldMs = 60_000;
