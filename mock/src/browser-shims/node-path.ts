/** node:path for the browser build (D-173): what the configuration calls with its defaults (no files are opened in a browser). */
function join(...parts: string[]): string {
  return parts
    .filter((part) => part !== "")
    .join("/")
    .replace(/\/+/g, "/");
}

function resolve(...parts: string[]): string {
  const joined = join(...parts);
  return joined.startsWith("/") ? joined : `/${joined.replace(/^\.\//, "")}`;
}

export default { join, resolve };
