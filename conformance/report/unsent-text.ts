/** The coverage's request fields and query parameters no request sent non-null (D-490), as console lines. */

/** A heading with the count, then one line per operation with its fields; one line when every field was sent. */
export function renderUnsent(unsent: readonly string[] | undefined): string[] {
  if (unsent === undefined) return [];
  if (unsent.length === 0) return ["", "Request fields and query parameters never sent non-null: none"];
  const byOperation = new Map<string, string[]>();
  for (const key of unsent) {
    const [operation = "", field = ""] = key.split(" ");
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), field]);
  }
  return [
    "",
    `Request fields and query parameters never sent non-null: ${unsent.length}`,
    ...[...byOperation].map(([operation, fields]) => `  ${operation}: ${fields.join(", ")}`),
  ];
}
