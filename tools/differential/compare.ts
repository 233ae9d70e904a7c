/** What the differential test compares of an answer: the status, the headers the contract and our profile name, and the body with ids and times set aside. */

/** Headers a client reads: the content type, the protocol answers (D-115, D-21), the common ones (D-16) and CORS (D-132). */
const comparedHeaders = [
  "content-type",
  "allow",
  "retry-after",
  "accept-encoding",
  "www-authenticate",
  "cache-control",
  "x-content-type-options",
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-expose-headers",
];

/** An answer reduced to what must be equal. */
export interface Comparable {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const isoTime = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;

/** The comparable part of an answer given as its status, header pairs and body text. */
export function comparable(status: number, headers: Iterable<[string, string]>, body: string): Comparable {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (comparedHeaders.includes(lower)) kept[lower] = value;
  }
  return { status, headers: kept, body: body.replace(uuid, "<id>").replace(isoTime, "<time>") };
}
