/// <reference types="vite/client" />
/**
 * node:fs for the browser build (D-173): the contract's JSON files and the demo fixture, bundled as text,
 * found by their file name (a `new URL(…, import.meta.url)` becomes an asset URL with a hash in it).
 */

import demoFixture from "../../../contract/demo-fixture.json?raw";
import openapi from "../../../generated/openapi.json?raw";
import operations from "../../../generated/operations.json?raw";

const files: Array<[name: RegExp, text: string]> = [
  [/\/openapi(-[\w-]+)?\.json$/, openapi],
  [/\/operations(-[\w-]+)?\.json$/, operations],
  [/\/demo-fixture(-[\w-]+)?\.json$/, demoFixture],
];

export function readFileSync(file: string | URL): string {
  const name = String(file instanceof URL ? file.pathname : file);
  const found = files.find(([pattern]) => pattern.test(name));
  if (!found) throw new Error(`the browser build has no file ${name}`);
  return found[1];
}

export default { readFileSync };
