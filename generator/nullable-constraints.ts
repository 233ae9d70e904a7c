/**
 * Moves the constraints the TypeSpec emitter writes beside a nullable `anyOf: [T, {type: null}]` into `T` (D-130),
 * where every generator reads them.
 */

/** Keywords that constrain a value of the non-null branch; annotations (description, default, examples…) stay outside. */
export const constraintKeywords = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
];

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const isNull = (value: unknown) => isNode(value) && value.type === "null" && Object.keys(value).length === 1;

/** Rewrites one schema node in place when it is a nullable anyOf with constraints beside it. */
function moveInto(node: Node, at: string): void {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !branches.some(isNull)) return;
  const moved = constraintKeywords.filter((keyword) => keyword in node);
  if (moved.length === 0) return;
  const target = branches.find((branch) => !isNull(branch));
  // A constraint beside a $ref would be read by few generators; the model has none, and one added later fails here.
  if (!isNode(target) || "$ref" in target)
    throw new Error(`${at}: constraints ${moved.join(", ")} beside a nullable $ref; name a constrained scalar instead`);
  for (const keyword of moved) {
    if (keyword in target && target[keyword] !== node[keyword])
      throw new Error(`${at}: ${keyword} differs inside and beside the nullable anyOf`);
    target[keyword] = node[keyword];
    delete node[keyword];
  }
}

/** Walks the whole document (schemas, parameters, bodies) and rewrites every nullable field in place. */
export function moveNullableConstraints(document: unknown): void {
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${at}/${index}`);
      return;
    }
    if (!isNode(value)) return;
    moveInto(value, at);
    for (const [key, child] of Object.entries(value)) walk(child, `${at}/${key}`);
  };
  walk(document, "#");
}

/** Lists the nullable anyOf nodes that still carry a constraint beside them (the drift test asserts none). */
export function constraintsBesideNullable(document: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${at}/${index}`);
      return;
    }
    if (!isNode(value)) return;
    if (
      Array.isArray(value.anyOf) &&
      value.anyOf.some(isNull) &&
      constraintKeywords.some((keyword) => keyword in value)
    )
      found.push(at);
    for (const [key, child] of Object.entries(value)) walk(child, `${at}/${key}`);
  };
  walk(document, "#");
  return found;
}
