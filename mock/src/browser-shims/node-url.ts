/** node:url for the browser build (D-173): a file URL's path. */
export function fileURLToPath(url: string | URL): string {
  return new URL(String(url)).pathname;
}
