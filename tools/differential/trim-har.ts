/**
 * `npx tsx tools/differential/trim-har.ts RUN.har conformance-exchanges.json`: the requests of a conformance run's HAR
 * (`npm run conformance:reference -- --target memory --hosting cloud --har RUN.har`) as the differential test replays
 * them: method, target, headers, body and which configured key was sent; answers, truncated bodies and repeats left out.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { RecordedExchange } from "./recorded-exchange.js";

interface HarEntry {
  request: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    postData?: { text: string };
    comment?: string;
  };
  _keyRef?: RecordedExchange["keyRef"];
}

const [harPath, outPath] = process.argv.slice(2);
if (!harPath || !outPath) throw new Error("usage: trim-har.ts RUN.har OUT.json");
const entries = (JSON.parse(readFileSync(harPath, "utf8")) as { log: { entries: HarEntry[] } }).log.entries;
const seen = new Set<string>();
const exchanges: RecordedExchange[] = [];
for (const { request, _keyRef } of entries) {
  if (request.comment?.includes("truncated")) continue;
  const url = new URL(request.url);
  const exchange: RecordedExchange = {
    method: request.method,
    target: url.pathname + url.search,
    headers: Object.fromEntries(
      request.headers.filter(({ name }) => name.toLowerCase() !== "x-api-key").map(({ name, value }) => [name, value]),
    ),
    keyRef: _keyRef ?? "none",
    ...(request.postData ? { body: request.postData.text } : {}),
  };
  const key = JSON.stringify(exchange);
  if (seen.has(key) && request.method === "GET") continue;
  seen.add(key);
  exchanges.push(exchange);
}
writeFileSync(outPath, `${JSON.stringify(exchanges, null, 0).replace(/\},\{"method"/g, '},\n{"method"')}\n`);
console.log(`${exchanges.length} of ${entries.length} requests written to ${outPath}`);
