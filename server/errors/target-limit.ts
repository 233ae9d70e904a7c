/** The longest request target (path and query) the server takes (D-115): above it, 414. No Node module, so browsers can load it. */
export const maxTargetBytes = 8192;
