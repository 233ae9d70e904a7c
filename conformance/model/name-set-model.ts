/**
 * The sequential model the concurrency laws judge a round by (LAW-001, LAW-002, D-370): the set of names created in
 * one round. A create answered 2xx adds its name; a list shows exactly the set; with `unique` (D-22) a 409 is only
 * possible for a name already in the set, and a second 2xx for one is not.
 */
import type { SequentialModel } from "./linearizability.js";

/** One operation of a round: a create of a name, or a list of the round's names. */
export type NamedInput = { kind: "create"; name: string } | { kind: "list" };

/** What the target answered: a 2xx create, a 409, any other refusal, or the round's names a list showed. */
export type NamedOutput =
  | { kind: "created" }
  | { kind: "conflict" }
  | { kind: "refused" }
  | { kind: "listed"; names: readonly string[] };

type Names = ReadonlySet<string>;

const key = (names: Names) => [...names].sort().join("\n");

/** The model; `unique`: a name is taken once (D-22: a second create of it is 409). */
export function nameSetModel(unique: boolean): SequentialModel<Names, NamedInput, NamedOutput> {
  return {
    init: new Set<string>(),
    key,
    step(state, input, output) {
      if (input.kind === "list")
        return output.kind === "listed" &&
          key(new Set(output.names)) === key(state) &&
          output.names.length === state.size
          ? state
          : undefined;
      if (output.kind === "created")
        return unique && state.has(input.name) ? undefined : new Set([...state, input.name]);
      if (output.kind === "conflict" && unique) return state.has(input.name) ? state : undefined;
      return output.kind === "listed" ? undefined : state;
    },
  };
}
