/**
 * One bug, one problem (D-243): failed checks grouped by cause. A cause is what the target did wrong, not which
 * check saw it: a schema breach is the records' path and the assertion (the same record broken in a create answer
 * and in a list is one cause); an answer with the wrong status is the operation, the request and the status; any
 * other failure is the operation, the status and the check's assertion with its variable parts taken out; an answer
 * labelled with a media type the contract does not document is one cause per media type.
 */
import { isOperationId, operation } from "../../contract/index.js";
import type { Level } from "../runner/check.js";
import type { Verdict } from "../runner/verdict.js";
import type { Exchange } from "../target/http-exchange.js";

/** One cause of failures and the checks it explains. */
export interface Problem {
  /** One line: what the target does wrong. */
  statement: string;
  /** MUST when a MUST check failed on it. */
  level: Level;
  /** The failed checks it explains, MUST ones first. */
  checks: string[];
  /** The grouping key (stable across runs of the same bug). */
  cause: string;
  /** One exchange that shows it (the first MUST check's). */
  exchange?: Exchange;
}

/** `the 201 answer of createDeployment does not match the … schema: (root) must have …; /x …` */
const schemaBreach = /^the (\d{3}) answer of (\w+) does not match the [^:]*schema: (.+)$/s;

/** `the full contract is broken: create codehost: (root) must have …; /x … | list: …` (SCHEMA-*, D-221). */
const fullContractBreach = /^the full contract is broken: [^:]+: (.+?)(?: \| .*)?$/s;

/** An answer labelled with a media type a check did not expect: "Content-Type is 'text/plain; …'", "a 200 labelled text/plain". */
const wrongMediaType = /\b(?:Content-Type(?: is)?|labelled) '?([\w.+-]+\/[\w.+-]+)/i;

/** A check that expected another status: "expected an error, got 200", "answered 200, expected a 4xx", … */
const wrongStatus =
  /\bexpected (?:an? )?(?:error|4xx|5xx|2xx|\d{3})\b.*\b(?:got|answered)\b|\b(?:got|answered) \d{3}\b.*\bexpected\b/i;

/** The assertion of a failure message: its first line without what fast-check appends (input, seed, sequence). */
function firstLine(text: string): string {
  return text
    .split("\n")[0]!
    .replace(/ \[fast-check .*$| shortest failing sequence.*$/, "")
    .trim();
}

/** Takes run-specific parts out of a text: the run's names, UUIDs, times, numbers, quoted values. */
export function normalize(text: string): string {
  return firstLine(text)
    .replace(/\bcf-[a-z0-9]{6}-[\w.-]*/gi, "<name>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, "<time>")
    .replace(/'[^']*'|"[^"]*"/g, (quoted) => (/^['"][\w.-]{1,40}['"]$/.test(quoted) ? quoted : "<value>"))
    .replace(/\b\d+(\.\d+)?\b/g, "<n>")
    .trim();
}

/** The path of a record inside an answer: `/resources/3/status` and `/3/status` → `/status`, `(root)` → ``. */
function recordPath(instancePath: string): string {
  const path = instancePath === "(root)" ? "" : instancePath;
  return path.replace(/^\/resources\/\d+|^\/\d+/, "").replace(/\/\d+(?=\/|$)/g, "/*");
}

/** The collection an operation's records belong to: its path without parameters' values (`/v2/deployments`). */
function collectionOf(operationId: string): string {
  return isOperationId(operationId) ? operation(operationId).path : operationId;
}

/**
 * A request as a wrong-status cause sees it (D-384): its method and path without ids with the names of its query
 * parameters (the shape, the cause's key), and the query it carried (what one problem lists). Every out-of-range
 * `limit` answered 200 is one cause, whichever values the checks sent.
 */
function requestShape(exchange: Exchange): { shape: string; query: string } {
  const url = new URL(exchange.request.url);
  const entries = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const names = [...new Set(entries.map(([name]) => name))].join("&");
  const query = entries
    .map(([name, value]) => `${name}=${value === "" || /^[-+]?[\d.e]+$/i.test(value) ? value : normalize(value)}`)
    .join("&");
  const path = url.pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, "{id}");
  return { shape: `${exchange.request.method} ${path}${names ? `?${names}` : ""}`, query };
}

/** The requests of one wrong-status cause: `GET /p?limit=0`, or with several queries of one parameter `GET /p?limit=0, 101, (empty)`. */
function requestsSeen(shape: string, queries: string[]): string {
  const at = shape.indexOf("?");
  const base = at === -1 ? shape : shape.slice(0, at);
  if (queries.length === 0) return shape;
  const names = at === -1 ? [] : shape.slice(at + 1).split("&");
  if (queries.length === 1 || names.length !== 1) return `${base}?${queries.join(" | ")}`;
  const values = queries.map((q) => q.slice(names[0]!.length + 1) || "(empty)");
  return `${base}?${names[0]}=${values.join(", ")}`;
}

/** The cause of one failed verdict: its grouping key, its one-line statement and, for a wrong status, the query values seen. */
export function causeOf(verdict: Verdict): { cause: string; statement: string; values?: string } {
  const failure = verdict.failure;
  const message = failure?.message ?? "failed";
  const exchange = failure?.exchange;
  const media = wrongMediaType.exec(firstLine(message));
  if (media) {
    // one media type sent where the contract names another is one cause, whatever the status or the check
    const type = media[1]!.toLowerCase();
    return {
      cause: `media ${type}`,
      statement: `answers are sent with Content-Type ${type}, not the media type the contract documents`,
    };
  }
  const schema = schemaBreach.exec(firstLine(message));
  const full = schema ? undefined : fullContractBreach.exec(firstLine(message));
  // a breach seen by a full-contract check is the same cause as the same breach seen at the interface level
  const breach = schema
    ? { operationId: schema[2]!, problems: schema[3]! }
    : full && exchange?.operation
      ? { operationId: exchange.operation, problems: full[1]! }
      : undefined;
  if (breach) {
    const first = breach.problems.split("; ")[0]!;
    const space = first.indexOf(" ");
    const path = recordPath(first.slice(0, space));
    const assertion = first.slice(space + 1);
    const collection = collectionOf(breach.operationId);
    return {
      cause: `schema ${collection}${path} ${assertion}`,
      statement: `records of ${collection}${path ? ` (field ${path})` : ""}: ${assertion}`,
    };
  }
  const operationId = exchange?.operation ?? "(no operation)";
  const status = exchange?.response.status;
  if (exchange && wrongStatus.test(message)) {
    const { shape, query } = requestShape(exchange);
    return {
      cause: `status ${shape} ${status}`,
      statement: `${requestsSeen(shape, query ? [query] : [])} is answered ${status}, not the status the checks expect`,
      ...(query ? { values: query } : {}),
    };
  }
  const assertion = normalize(message);
  return {
    cause: `check ${operationId} ${status ?? "-"} ${assertion}`,
    statement: failure?.error ? `the check could not complete: ${assertion}` : firstLine(message),
  };
}

/** Groups the failed verdicts into problems: MUST problems first, then by how many checks each explains. */
export function groupProblems(verdicts: readonly Verdict[]): Problem[] {
  const byCause = new Map<string, { statement: string; failed: Verdict[]; values: Set<string> }>();
  for (const verdict of verdicts) {
    if (verdict.status !== "fail") continue;
    const { cause, statement, values } = causeOf(verdict);
    const group = byCause.get(cause) ?? { statement, failed: [], values: new Set<string>() };
    group.failed.push(verdict);
    if (values) group.values.add(values);
    byCause.set(cause, group);
  }
  const problems: Problem[] = [];
  for (const [cause, group] of byCause) {
    const { failed, values } = group;
    // one problem for every value of the parameter answered alike, listing the values seen (D-384)
    const statement =
      values.size > 1
        ? `${requestsSeen(cause.slice("status ".length).replace(/ \d{3}$/, ""), [...values])} is answered ${failed[0]!.failure?.exchange?.response.status}, not the status the checks expect`
        : group.statement;
    const ordered = [...failed.filter((v) => v.level === "MUST"), ...failed.filter((v) => v.level === "SHOULD")];
    const seenIn = [
      ...new Set(
        ordered.flatMap((v) =>
          v.failure?.exchange?.operation
            ? [`${v.failure.exchange.operation} ${v.failure.exchange.response.status}`]
            : [],
        ),
      ),
    ];
    const level: Level = ordered[0]!.level;
    const exchange = ordered.find((v) => v.failure?.exchange)?.failure?.exchange;
    problems.push({
      statement:
        cause.startsWith("schema ") && seenIn.length > 0 ? `${statement} (in ${seenIn.join(", ")})` : statement,
      level,
      checks: ordered.map((v) => v.id),
      cause,
      ...(exchange ? { exchange } : {}),
    });
  }
  return problems.sort(
    (a, b) => (a.level === b.level ? 0 : a.level === "MUST" ? -1 : 1) || b.checks.length - a.checks.length,
  );
}
