/**
 * Arrays of every shape a list parameter can take (D-374): one item, distinct items, items repeated (next to each
 * other or apart), in creation order, reversed or shuffled. Each drawn array names the cells of the `arrays` axis it
 * reaches (conformance/coverage/axes.ts); a counter-example shrinks toward fewer items and fewer repeats.
 */
import fc from "fast-check";
import type { ArrayShape } from "../coverage/axes.js";

/** A drawn array and the shapes it has. */
interface ShapedArray<T> {
  items: T[];
  shapes: ArrayShape[];
}

/** The shapes of `items` against `base` (the items in creation order). */
export function shapesOf<T>(items: readonly T[], base: readonly T[]): ArrayShape[] {
  const shapes: ArrayShape[] = [];
  const distinct = new Set(items);
  if (items.length === 1) shapes.push("one item");
  if (distinct.size === items.length && items.length > 1) shapes.push("distinct");
  if (distinct.size < items.length) shapes.push("repeated");
  if (items.some((item, i) => i > 0 && items[i - 1] === item)) shapes.push("repeated adjacent");
  const order = items.map((item) => base.indexOf(item));
  const ascending = order.every((v, i) => i === 0 || v >= order[i - 1]!);
  const descending = order.every((v, i) => i === 0 || v <= order[i - 1]!);
  if (distinct.size > 1 && ascending) shapes.push("in creation order");
  else if (distinct.size > 1 && descending) shapes.push("reversed");
  else if (distinct.size > 1) shapes.push("shuffled");
  return shapes;
}

/** Arrays over `base` (at least one item): a subset, some of it repeated, in any order. */
export function repeatsAndOrders<T>(base: readonly T[]): fc.Arbitrary<ShapedArray<T>> {
  return fc
    .shuffledSubarray([...base], { minLength: 1 })
    .chain((subset) =>
      fc.tuple(
        fc.constant(subset),
        fc.array(fc.constantFrom(...subset), { maxLength: subset.length + 1 }),
        fc.oneof(fc.constant("creation" as const), fc.constant("reversed" as const), fc.constant("as drawn" as const)),
      ),
    )
    .chain(([subset, repeats, order]) => {
      const all = [...subset, ...repeats];
      const arranged =
        order === "creation"
          ? fc.constant([...all].sort((a, b) => base.indexOf(a) - base.indexOf(b)))
          : order === "reversed"
            ? fc.constant([...all].sort((a, b) => base.indexOf(b) - base.indexOf(a)))
            : fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
      return arranged;
    })
    .map((items) => ({ items, shapes: shapesOf(items, base) }));
}
