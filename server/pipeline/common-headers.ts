/** The headers every answer of the pipeline carries: never cached, never sniffed (D-16). */
export const commonHeaders: Readonly<Record<string, string>> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};
