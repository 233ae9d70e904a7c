/**
 * The interface level of the contract (D-220): generated/openapi.json with every constraint a decision adds taken out, so
 * that what is left is what the interface spec states. Derived, never kept by hand: a schema node the model marks with
 * `x-decision: "D-NN[, D-NN]"` loses its constraints, and the numeric width formats of TypeSpec's types (D-70) go everywhere.
 */

import { constraintKeywords } from "./nullable-constraints.js";

type Node = Record<string, unknown>;

/** Keywords that narrow the values a schema accepts; a marked node loses every one of them. */
export const narrowingKeywords = [...constraintKeywords, "enum", "required"];

/** The formats TypeSpec writes for its numeric types (int32, int64, float64…): widths the interface spec never states (D-70). */
const widthFormats = new Set(["int32", "int64", "float", "double"]);

/** Sub-schemas that belong to the node itself (a marked node's items and branches are the same decision's). */
const inlineKeywords = ["items", "anyOf", "oneOf", "allOf"];

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** The extension that names the decision adding a node's constraints. */
const decisionExtension = "x-decision";

/** The interface level of a full contract document (a new document; the argument is not changed). */
export function interfaceLevel<T>(document: T): T {
  const copy = structuredClone(document) as Node;
  const schemas = ((copy.components as Node | undefined)?.schemas ?? {}) as Record<string, Node>;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (!isNode(value)) return;
    if (decisionExtension in value) {
      // A parameter object carries the mark beside its schema, which carries it too.
      if (!("in" in value && "name" in value)) strip(value, schemas);
      delete value[decisionExtension];
    }
    if (typeof value.format === "string" && widthFormats.has(value.format)) delete value.format;
    for (const child of Object.values(value)) walk(child);
  };
  walk(copy);
  return copy as T;
}

/** Takes a marked node's constraints out, in place: narrowing keywords, typed maps, and what its inline sub-schemas name. */
function strip(node: Node, schemas: Record<string, Node>): void {
  for (const keyword of narrowingKeywords) delete node[keyword];
  for (const keyword of ["additionalProperties", "unevaluatedProperties"])
    if (isNode(node[keyword]) && Object.keys(node[keyword]).length > 0) node[keyword] = {};
  if (typeof node.$ref === "string") {
    // A reference inside a marked node names a schema the interface spec does not state there: keep its type only.
    const target = schemas[node.$ref.replace("#/components/schemas/", "")];
    delete node.$ref;
    if (target?.type !== undefined) node.type = target.type;
  }
  for (const keyword of inlineKeywords) {
    const inline = node[keyword];
    if (isNode(inline)) strip(inline, schemas);
    else if (Array.isArray(inline)) for (const branch of inline) if (isNode(branch)) strip(branch, schemas);
  }
}
