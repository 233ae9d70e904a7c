/**
 * Whether a request field is one the interface spec's tables name (spec/interface-tables.json, the kit's copy of them)
 * or one only the contract declares: a round trip of the first is judged at MUST, of the second at SHOULD (D-491).
 */
import tables from "../../spec/interface-tables.json" with { type: "json" };

interface Section {
  heading: string;
  text: string;
  tables: { header: string[]; rows: Record<string, string>[] }[];
}

const sections = (tables as { sections: Section[] }).sections;

/**
 * The section that describes the members of each object of a request (`operationId path`, `""` for the body itself),
 * its first column naming them; ResourceSpec's names them by group, read as the words of its text.
 */
const sectionOf: Record<string, string> = {
  "createOAuthProvider ": "OAuth provider: creation request body",
  "createDeployment ": "6. Create a deployment",
  "createDeployment source_config": "SourceConfig",
  "createDeployment source_revision_config": "SourceRevisionConfig",
  "createDeployment secrets": "Secret",
  "createDeployment secret_references": "SecretReference",
  "createDeployment source_config.resource_spec": "ResourceSpec",
  "listDeployments query": "5. List deployments",
};

/** The words of a section's text: identifiers as written, for a member its tables name only in prose. */
const wordsOf = (section: Section) => new Set(section.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);

/** The names a section's tables list in their first column (`Field`, `Parameter`); none for a grouped table. */
function namesOf(section: Section): Set<string> | undefined {
  const fieldTables = section.tables.filter((t) => t.header[0] === "Field" || t.header[0] === "Parameter");
  if (fieldTables.length === 0) return undefined;
  return new Set(fieldTables.flatMap((t) => t.rows.map((row) => String(row[t.header[0]!] ?? "").replace(/`/g, ""))));
}

/**
 * Whether the interface spec names the request field `path` (`a.b`, `query.name`) of the operation: its parent's
 * table lists it, or, below an object with no table of its own, its nearest described ancestor's text names it.
 */
export function isInterfaceField(operationId: string, path: string): boolean {
  const parts = path.split(".");
  const leaf = parts.pop() ?? "";
  const parent = parts.join(".");
  const section = sections.find((s) => s.heading === sectionOf[`${operationId} ${parent}`]);
  if (section) return (namesOf(section) ?? wordsOf(section)).has(leaf);
  for (let depth = parts.length - 1; depth >= 0; depth -= 1) {
    const ancestor = sections.find((s) => s.heading === sectionOf[`${operationId} ${parts.slice(0, depth).join(".")}`]);
    if (ancestor) return wordsOf(ancestor).has(leaf) && isInterfaceField(operationId, parent);
  }
  return false;
}
