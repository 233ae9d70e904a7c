/** node:module for the browser build (D-173): the one runtime helper the generated validators require (they read its `default`). */
import ucs2length from "ajv/dist/runtime/ucs2length.js";

const modules: Record<string, unknown> = {
  "ajv/dist/runtime/ucs2length": typeof ucs2length === "function" ? { default: ucs2length } : ucs2length,
};

export function createRequire(_from: string) {
  return (id: string): unknown => {
    if (!(id in modules)) throw new Error(`the browser build cannot require ${id}`);
    return modules[id];
  };
}
