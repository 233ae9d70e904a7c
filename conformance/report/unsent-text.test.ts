/** The coverage's unsent fields print as one line when none, else a count and one line per operation. */
import { describe, expect, it } from "vitest";
import { renderUnsent } from "./unsent-text.js";

describe("renderUnsent", () => {
  it.each([
    { given: undefined, want: [] },
    { given: [], want: ["", "Request fields and query parameters never sent non-null: none"] },
    {
      given: ["createOAuthProvider description", "listDeployments query.sort", "listDeployments query.order"],
      want: [
        "",
        "Request fields and query parameters never sent non-null: 3",
        "  createOAuthProvider: description",
        "  listDeployments: query.sort, query.order",
      ],
    },
  ])("$given", ({ given, want }) => {
    expect(renderUnsent(given)).toEqual(want);
  });
});
