/**
 * Every legal spelling of one query (D-374): as URLSearchParams writes it, with its names or its values
 * percent-encoded (upper- and lower-case hex, RFC 3986 §2.1 and §6.2.2.1: equivalent spellings), commas left as they are (URLSearchParams encodes them),
 * spaces as `%20` (URLSearchParams writes `+`, application/x-www-form-urlencoded) and the parameters in another order. Each spelling decodes to
 * the same parameters, so a server answers each alike.
 */
import type { QuerySpelling } from "../coverage/axes.js";

/** Every byte of `text` in UTF-8, percent-encoded. */
const encodeAll = (text: string, lower = false) =>
  [...new TextEncoder().encode(text)]
    .map((b) => `%${lower ? b.toString(16).padStart(2, "0") : b.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");

const plain = (entries: [string, string][]) => new URLSearchParams(entries).toString();
const pair = (name: string, value: string) => `${name}=${value}`;

/** The spellings of `entries` that differ from writing them as is (a spelling that changes nothing is left out). */
export function spellings(entries: [string, string][]): { spelling: QuerySpelling; query: string }[] {
  const asWritten = plain(entries);
  const out: { spelling: QuerySpelling; query: string }[] = [
    { spelling: "as written", query: asWritten },
    {
      spelling: "names percent-encoded",
      query: entries.map(([n, v]) => pair(encodeAll(n), encodeURIComponent(v))).join("&"),
    },
    { spelling: "values percent-encoded", query: entries.map(([n, v]) => pair(n, encodeAll(v))).join("&") },
    {
      spelling: "lower-case hex",
      query: entries.map(([n, v]) => pair(encodeAll(n, true), encodeAll(v, true))).join("&"),
    },
    {
      spelling: "comma literal",
      query: entries.map(([n, v]) => pair(n, v.split(",").map(encodeURIComponent).join(","))).join("&"),
    },
    {
      spelling: "space as %20",
      query: entries.map(([n, v]) => pair(n, encodeURIComponent(v))).join("&"),
    },
    { spelling: "parameters reordered", query: plain([...entries].reverse()) },
  ];
  return out.filter((s, i) => i === 0 || s.query !== asWritten);
}

/** The parameters a spelling of a query carries: a spelling is legal only when this gives back the entries. */
export function decoded(query: string): [string, string][] {
  return [...new URLSearchParams(query)];
}
