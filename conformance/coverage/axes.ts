/**
 * The coverage axes of the generated properties (PROP-*): method × answer class, character class × field and
 * filter × value class. A property notes each cell it judged; every declared cell shows, so an empty one is visible.
 */
import type { Verdict } from "../runner/verdict.js";

/** One axis: its declared rows and columns. */
interface AxisShape {
  name: string;
  rows: readonly string[];
  columns: readonly string[];
}

/** The character classes every string field and filter is judged with (conformance/model/char-classes.ts). */
export const characterClasses = [
  "ascii",
  "latin1",
  "cjk",
  "astral-emoji",
  "combining",
  "rtl",
  "zero-width",
  "quotes",
  "backslash",
  "query-specials",
  "edge-whitespace",
  "long",
  "compatibility",
  "normalization",
  "one-character",
  "two-characters",
  "at-bound",
] as const;

export type CharacterClass = (typeof characterClasses)[number];

/** The classes of the corpus values (conformance/model/corpus-values.ts, D-495), judged beside the character classes. */
export const corpusClasses = [
  "naughty-strings",
  "number-like",
  "inner-punctuation",
  "empty",
  "bound-1-byte",
  "bound-2-byte",
  "bound-3-byte",
  "bound-4-byte",
] as const;

export type CorpusClass = (typeof corpusClasses)[number];

/** The answer classes of the method axis: success, and each error status a run can provoke. */
const answerClasses = ["2xx", "400", "401", "403", "404", "405", "409", "413", "415", "422"] as const;

/** The value classes a filter is judged with. */
const valueClasses = [
  "matching",
  "letter-case",
  "special-characters",
  "non-ascii",
  "malformed",
  "unknown-or-foreign",
  "combined",
  "absent (default)",
] as const;

/** The shapes of a list parameter's array (conformance/model/repeats-and-orders.ts, D-374). */
export const arrayShapes = [
  "one item",
  "distinct",
  "repeated",
  "repeated adjacent",
  "in creation order",
  "reversed",
  "shuffled",
] as const;

export type ArrayShape = (typeof arrayShapes)[number];

/** The legal spellings a query is sent in (conformance/model/query-spellings.ts, D-374). */
export const querySpellings = [
  "as written",
  "names percent-encoded",
  "values percent-encoded",
  "lower-case hex",
  "comma literal",
  "space as %20",
  "parameters reordered",
] as const;

export type QuerySpelling = (typeof querySpellings)[number];

export const axes = {
  methods: {
    name: "method × answer class",
    rows: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    columns: answerClasses,
  },
  text: {
    name: "character class × field",
    rows: [...characterClasses, ...corpusClasses],
    columns: [
      "provider.name",
      "provider.client_id",
      "provider.provider_id",
      "source_config.install_command",
      "source_config.build_command",
      "source_revision_config.graph_config_path",
      "source_revision_config.source_tarball_path",
      "source_config.listener_config.cluster_namespace",
      "source_config.resource_spec.service_account_name",
      "source_config.resource_spec.sidecars.args",
      "source_config.resource_spec.sidecars.env.value",
      "secret_references.secret_name",
      "query.name_contains",
    ],
  },
  filters: {
    name: "filter × value class",
    rows: [
      "name_contains",
      "status",
      "deployment_ids",
      "image_version",
      "remote_reconciled",
      "deployment_type",
      "tag_value_ids",
      "limit",
      "offset",
    ],
    columns: valueClasses,
  },
  arrays: {
    name: "list parameter × array shape",
    rows: ["deployment_ids", "status", "tag_value_ids"],
    columns: arrayShapes,
  },
  spellings: {
    name: "parameter × spelling",
    rows: ["limit", "offset", "name_contains", "deployment_ids", "status", "remote_reconciled", "image_version"],
    columns: querySpellings,
  },
} satisfies Record<string, AxisShape>;

export type AxisKey = keyof typeof axes;

/** What a run did with one cell: a passing check judged it, a failing one did, or none. */
type AxisCellState = "passed" | "failed" | "unreached";

export interface AxisCoverage {
  name: string;
  rows: string[];
  columns: string[];
  /** cells[row][column] */
  cells: AxisCellState[][];
}

const marker = "cell ";

/** The note a check leaves for one cell it judged. */
export function cellNote(axis: AxisKey, row: string, column: string): string {
  return `${marker}${axis}: ${row} × ${column}`;
}

/** Every axis with the state of each declared cell, from the cell notes of the verdicts. */
export function computeAxes(verdicts: readonly Verdict[]): AxisCoverage[] {
  return Object.entries(axes).map(([key, shape]) => {
    const cells = shape.rows.map(() => shape.columns.map((): AxisCellState => "unreached"));
    for (const v of verdicts) {
      if (v.status === "skip") continue;
      for (const note of v.notes ?? []) {
        if (!note.startsWith(`${marker}${key}: `)) continue;
        const [row, column] = note.slice(marker.length + key.length + 2).split(" × ");
        const r = shape.rows.indexOf(row as never);
        const c = (shape.columns as readonly string[]).indexOf(column ?? "");
        if (r < 0 || c < 0) continue;
        const cell = cells[r]!;
        if (v.status === "fail") cell[c] = "failed";
        else if (cell[c] === "unreached") cell[c] = "passed";
      }
    }
    return { name: shape.name, rows: [...shape.rows], columns: [...shape.columns], cells };
  });
}

/** The empty cells of every axis, as `axis: row × column`. */
export function emptyCells(coverage: readonly AxisCoverage[]): string[] {
  return coverage.flatMap((axis) =>
    axis.rows.flatMap((row, r) =>
      axis.columns.filter((_, c) => axis.cells[r]![c] === "unreached").map((column) => `${row} × ${column}`),
    ),
  );
}
