/** The fields the contract marks `x-secret: true` (D-390): no output of the kit (reports, recordings, logs) may show their values. */
import { document } from "./document.js";

/** Every property name some schema of the contract marks secret (`client_secret`, a secret's `value`). */
export const secretFields: ReadonlySet<string> = collectSecretFields(document.components?.schemas ?? {});

function collectSecretFields(schemas: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (node !== null && typeof node === "object") {
      const properties = (node as { properties?: unknown }).properties;
      if (properties !== null && typeof properties === "object")
        for (const [name, schema] of Object.entries(properties))
          if ((schema as Record<string, unknown>)?.["x-secret"] === true) names.add(name);
      for (const child of Object.values(node)) visit(child);
    }
  };
  visit(schemas);
  return names;
}
