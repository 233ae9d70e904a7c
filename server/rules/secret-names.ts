/** Secret names (D-116): each like an environment variable name (a letter or `_`, then letters, digits, `_`, `.`, `-`), and no name twice in one deployment; 422 naming the secret. */
import type { ProblemFieldError, Secret } from "../../contract/schemas.js";

/** What a secret name may be: never a path (`/`, `\`), never `.` or `..`, never blank. */
const secretNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The field errors of the secrets' names: each malformed name, and each name a previous secret already has. */
export function checkSecretNames(secrets: Secret[]): ProblemFieldError[] {
  const errors: ProblemFieldError[] = [];
  const seen = new Map<string, number>();
  secrets.forEach((secret, index) => {
    const pointer = `/secrets/${index}/name`;
    if (!secretNamePattern.test(secret.name)) {
      errors.push({
        pointer,
        detail: "must start with a letter or '_' and hold only letters, digits, '_', '.' and '-' (no path)",
      });
    }
    const first = seen.get(secret.name);
    if (first === undefined) seen.set(secret.name, index);
    else errors.push({ pointer, detail: `duplicates the name of /secrets/${first}` });
  });
  return errors;
}
