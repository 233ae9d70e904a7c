/** A fresh PostgreSQL schema name, so that parallel runs and workers never share tables. */
import { randomBytes } from "node:crypto";

/** `prefix_<time>_<random>`: the prefix says which harness made a schema left behind. */
export function freshSchemaName(prefix = "test"): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}
