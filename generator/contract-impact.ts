/** What a contract change touches: conformance checks, titled examples of the operation, generated client type aliases (D-82). */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { allChecks } from "../conformance/checks/index.js";
import type { ContractChange } from "./contract-classify.js";
import type { Json } from "./contract-dereference.js";

const root = resolve(import.meta.dirname, "..");

/** The impact of one change. */
export interface Impact {
  /** Conformance check ids (conformance/checks/). */
  checks: string[];
  /** Titled examples of the affected operation: `request: <title>` or `<status>: <title>`. */
  examples: string[];
  /** Type aliases of generated/client.ts whose component schema the change is in. */
  clientTypes: string[];
}

/** The parts of a conformance check the matching reads. */
interface CheckText {
  id: string;
  tags: string[];
  statement: string;
  specRef: string;
}

/**
 * The checks that touch a change. A check is tied to operations by its tags, and names fields and
 * statuses in its statement and spec pointer; so a check touches a change when it is tagged with the
 * change's operation and
 * - the change is to the operation itself (removed, moved), or
 * - its text names the changed field or parameter as a whole word (`name`, `limit`, `status`), or
 * - its text names the changed status (`answers 201`), or
 * - it is a fuzz check and the change is to the request: fuzz checks generate requests from the schema.
 * Word matching over-reports (a check saying "name" for another field's name) rather than missing one.
 */
export function touchingChecks(change: ContractChange, checks: CheckText[] = allChecks): string[] {
  const field = change.path
    .split(/[.\s]/)
    .pop()!
    .replace(/[[\]{}|0-9]+$/g, "");
  const status = change.path.startsWith("status") ? (change.detail.match(/\d{3}/g) ?? []) : [];
  const word = (text: string, needle: string) =>
    new RegExp(`(^|[^\\w-])${needle.replace(/[-$^.*+?()[\]{}|\\]/g, "\\$&")}($|[^\\w-])`).test(text);
  return checks
    .filter((check) => check.tags.includes(change.operation))
    .filter((check) => {
      const text = `${check.statement} ${check.specRef}`;
      if (change.side === "operation") return true;
      if (change.side === "request" && check.tags.includes("fuzz")) return true;
      if (status.some((code) => word(text, code))) return true;
      return field !== "" && field !== "body" && field !== "status"
        ? word(text, field) || check.tags.includes(field)
        : false;
    })
    .map((check) => check.id);
}

/** The titled examples of the change's operation on its side (for responses, of the statuses that show it). */
function touchedExamples(change: ContractChange, document: Json): string[] {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item) as Json[]) {
      if (operation?.operationId !== change.operation) continue;
      const titles: string[] = [];
      if (change.side !== "response") {
        for (const media of Object.values((operation.requestBody?.content ?? {}) as Record<string, Json>)) {
          titles.push(...Object.keys(media.examples ?? {}).map((title) => `request: ${title}`));
        }
      }
      if (change.side !== "request") {
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
          if (change.statuses.length > 0 && !change.statuses.includes(status)) continue;
          for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
            titles.push(...Object.keys(media.examples ?? {}).map((title) => `${status}: ${title}`));
          }
        }
      }
      return titles;
    }
  }
  return [];
}

/** Schema name → client type alias, read from generated/client.ts (`export type <Alias> = components["schemas"]["<Name>"]`). */
export function clientTypeAliases(
  clientText = readFileSync(join(root, "generated", "client.ts"), "utf8"),
): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const match of clientText.matchAll(/^export type (\w+) = components\["schemas"\]\["([^"]+)"\];$/gm))
    aliases.set(match[2]!, match[1]!);
  return aliases;
}

/** The impact of a change on the kit, judged on `document` (the newer one; the older one for a removed operation). */
export function impactOf(change: ContractChange, document: Json, aliases: Map<string, string>): Impact {
  return {
    checks: touchingChecks(change),
    examples: touchedExamples(change, document),
    clientTypes: change.schemas
      .map((name) => aliases.get(name))
      .filter((alias): alias is string => alias !== undefined),
  };
}
