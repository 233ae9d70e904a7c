/** The refusals a store answers a write with, in the domain's terms: the services turn them into problems (409, D-112) without importing storage. */

/** An organization already has as many records of a kind as it may (D-112). */
export class LimitReached extends Error {
  override name = "LimitReached";
  constructor(readonly limit: number) {
    super(`limit of ${limit} reached`);
  }
}

/** A unique constraint was hit: the record already exists. */
export class UniqueViolation extends Error {
  override name = "UniqueViolation";
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint}`);
  }
}
