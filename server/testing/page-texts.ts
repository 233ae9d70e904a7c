/** A page's texts as tests read them (D-211): joined with commas, whether the store answered them at once or in slices (D-350). */
import type { PageTexts } from "../storage/store.js";

export async function joinedPageTexts(page: PageTexts): Promise<string> {
  if ("joined" in page) return page.joined;
  const parts: string[] = [];
  for await (const slice of page.slices) parts.push(slice);
  return parts.join(",");
}
