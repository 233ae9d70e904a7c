/** The refusals a store answers a write with, in the domain's terms: the services turn them into problems (409, D-112) without importing storage. */

/** An organization already has as many records of a kind as it may (D-112). */
export class LimitReached extends Error {
  override name = "LimitReached";
  constructor(readonly limit: number) {
    super(`limit of ${limit} reached`);
  }
}

/** A unique constraint was hit: the record already exists (`taken`: the value held, where the caller needs it). */
export class UniqueViolation extends Error {
  override name = "UniqueViolation";
  constructor(
    readonly constraint: string,
    readonly taken?: string,
  ) {
    super(`unique constraint ${constraint}`);
  }
}
