/** Which decision (D-NN) adds the constraint a value breaks: the `x-decision` mark nearest to it on its path through a dereferenced schema (D-220). */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** The schemas a value at this step may be judged by: the node itself and the branches of its anyOf / oneOf / allOf. */
function branches(node: Node): Node[] {
  const more = [node.anyOf, node.oneOf, node.allOf].flatMap((list) => (Array.isArray(list) ? list.filter(isNode) : []));
  return [node, ...more.flatMap(branches)];
}

/** The schema of one step down (`segment` a property name or an array index) from any branch of `node`, and whether a map's values gave it. */
function child(node: Node, segment: string): { node: Node; mapValue: boolean } | undefined {
  for (const branch of branches(node)) {
    const properties = branch.properties;
    if (isNode(properties) && isNode(properties[segment])) return { node: properties[segment], mapValue: false };
    if (/^\d+$/.test(segment) && isNode(branch.items)) return { node: branch.items, mapValue: false };
    for (const keyword of ["additionalProperties", "unevaluatedProperties"])
      if (!/^\d+$/.test(segment) && isNode(branch[keyword])) return { node: branch[keyword], mapValue: true };
  }
  return undefined;
}

/**
 * The decisions marked on the schema of the value at `instancePath` (a JSON Pointer into a value of `schema`), e.g.
 * "D-65, D-133"; for a value of a map, the map's mark (a typed map is one constraint). Undefined when that schema is
 * not marked: the constraint broken is then one the interface spec states.
 */
export function decisionAt(schema: unknown, instancePath: string): string | undefined {
  const markOf = (node: Node) =>
    branches(node).find((branch) => typeof branch["x-decision"] === "string")?.["x-decision"];
  let node = isNode(schema) ? schema : undefined;
  let parent: Node | undefined;
  let mapValue = false;
  const segments = instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const segment of segments) {
    const step = node && child(node, segment);
    if (!step) return undefined;
    parent = node;
    ({ node, mapValue } = step);
  }
  const mark = (node && markOf(node)) ?? (mapValue && parent ? markOf(parent) : undefined);
  return typeof mark === "string" ? mark : undefined;
}
