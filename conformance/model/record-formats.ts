/** Format judgement of record fields as the interface spec types them: uuid, and date-time in RFC 3339 with its time offset. */

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 `date-time`: the offset is `Z` or `±hh:mm` (ISO 8601's basic `±hhmm` and a missing offset are not RFC 3339). */
const dateTime = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

type Kind = "deployment" | "provider" | "repository";

/** Fields of each record kind by format; a `?` marks a nullable field. */
const fields: Record<Kind, { uuid: string[]; dateTime: string[] }> = {
  deployment: {
    uuid: [
      "id",
      "tenant_id",
      "latest_revision_id?",
      "active_revision_id?",
      "source_config.integration_id?",
      "source_config.listener_id?",
    ],
    dateTime: ["created_at", "updated_at"],
  },
  provider: { uuid: [], dateTime: ["created_at", "updated_at"] },
  repository: { uuid: ["host_integration_id"], dateTime: [] },
};

function at(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split("."))
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** What is wrong with the formats of one record (empty when nothing is). */
export function recordFormatProblems(kind: Kind, record: unknown): string[] {
  if (!record || typeof record !== "object") return ["not an object"];
  const r = record as Record<string, unknown>;
  const out: string[] = [];
  const judge = (spec: string, pattern: RegExp, what: string) => {
    const nullable = spec.endsWith("?");
    const path = nullable ? spec.slice(0, -1) : spec;
    const value = at(r, path);
    if (nullable && (value === null || value === undefined)) return;
    if (typeof value !== "string" || !pattern.test(value) || (pattern === dateTime && Number.isNaN(Date.parse(value))))
      out.push(`${path} ${JSON.stringify(value)} is not ${what}`);
  };
  for (const f of fields[kind].uuid) judge(f, uuid, "a UUID");
  for (const f of fields[kind].dateTime) judge(f, dateTime, "an RFC 3339 date-time with a time offset");
  return out;
}
