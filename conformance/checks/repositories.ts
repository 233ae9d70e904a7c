/** Checks of operations 3 and 4 (interface-spec: List code-host repositories; D-10, D-13 to D-15, D-08). */

import { operation } from "../../contract/index.js";
import { ensure, expect2xx, expect4xx, expectStatus, jsonArray, jsonObject } from "../check-kit/assert.js";
import { type Json, managedReposRequest, paths } from "../check-kit/helpers.js";
import type { Check, CheckContext } from "../runner/check.js";

const op3 = ["listCodehostRepositories", "repositories"];
const op4 = ["listManagedCodehostRepositories", "repositories"];
const unknownIntegration = "00000000-0000-4000-8000-0000000000cf";

/** Byte order of the UTF-8 encodings (D-08), not the locale's collation: "Zeta" sorts before "alpha". */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function sortedByOwnerThenName(records: Json[]): string | undefined {
  for (let i = 1; i < records.length; i++) {
    const a = records[i - 1]!;
    const b = records[i]!;
    const cmp = byteOrder(String(a.owner), String(b.owner)) || byteOrder(String(a.name), String(b.name));
    if (cmp > 0) return `${String(b.owner)}/${String(b.name)} is listed after ${String(a.owner)}/${String(a.name)}`;
  }
  return undefined;
}

/** The first repository id a listing gives twice: one repository listed again, or two repositories given one id. */
function repeatedId(records: Json[]): string | undefined {
  const seen = new Map<string, Json>();
  for (const record of records) {
    const key = JSON.stringify(record.id);
    const first = seen.get(key);
    if (first)
      return `the id ${key} is given to ${String(first.owner)}/${String(first.name)} and again to ${String(record.owner)}/${String(record.name)}`;
    seen.set(key, record);
  }
  return undefined;
}

/** The integrations the run names, each with the operation that lists it (4 for the managed one). */
function configuredIntegrations(ctx: CheckContext): { managed: boolean; id: string; what: string }[] {
  const both: [boolean, string | undefined][] = [
    [false, ctx.config.integrationId],
    [true, ctx.config.managedIntegrationId],
  ];
  return both.flatMap(([managed, id]) =>
    id ? [{ managed, id, what: managed ? "managed repositories" : "code-host repositories" }] : [],
  );
}

async function listRepos(ctx: CheckContext, managed: boolean, id: string) {
  return ctx.send(
    managed
      ? managedReposRequest(ctx, id)
      : { method: "GET", path: paths.repos(id), operation: "listCodehostRepositories" },
  );
}

export const repositoryChecks: Check[] = [
  {
    id: "REPO-LIST-001",
    level: "MUST",
    tags: op3,
    statement:
      "Listing the repositories of the configured integration succeeds (2xx) with a JSON array of repository records",
    specRef: "interface-spec: 3. List code-host repositories",
    needs: ["integration"],
    async run(ctx) {
      const ex = await listRepos(ctx, false, ctx.config.integrationId!);
      expect2xx(ex, "list code-host repositories");
      jsonArray(ex, "list code-host repositories");
    },
  },
  {
    id: "REPO-LIST-002",
    level: "SHOULD",
    tags: op3,
    statement: "Listing repositories answers 200",
    specRef: "D-06 (lists 200)",
    needs: ["integration"],
    async run(ctx) {
      expectStatus(await listRepos(ctx, false, ctx.config.integrationId!), 200, "list code-host repositories");
    },
  },
  {
    id: "REPO-LIST-003",
    level: "MUST",
    tags: op3,
    statement: "Every listed repository carries host_integration_id equal to the integration it was listed from",
    specRef: 'interface-spec: Code-host repository record, host_integration_id "Integration ID"',
    needs: ["integration", "state"],
    async run(ctx) {
      const id = ctx.config.integrationId!;
      const ex = await listRepos(ctx, false, id);
      expect2xx(ex, "list code-host repositories");
      const wrong = (jsonArray(ex, "list") as Json[]).filter(
        (r) => String(r.host_integration_id).toLowerCase() !== id.toLowerCase(),
      );
      ensure(
        wrong.length === 0,
        `${wrong.length} records carry another host_integration_id (${wrong.map((r) => String(r.host_integration_id)).join(", ")})`,
        ex,
      );
    },
  },
  {
    id: "REPO-LIST-004",
    level: "SHOULD",
    tags: [...op3, "ordering"],
    statement: "Repositories are ordered by owner, then name",
    specRef: "D-08 (repositories by owner then name)",
    needs: ["integration"],
    async run(ctx) {
      const ex = await listRepos(ctx, false, ctx.config.integrationId!);
      expect2xx(ex, "list code-host repositories");
      const problem = sortedByOwnerThenName(jsonArray(ex, "list") as Json[]);
      ensure(!problem, problem ?? "", ex);
    },
  },
  {
    id: "REPO-LIST-005",
    level: "SHOULD",
    tags: op3,
    statement: "An integration that does not exist in the caller's tenant answers 404",
    specRef: "D-13 to D-15, D-16 (unknown integration 404)",
    needs: ["state"],
    async run(ctx) {
      expectStatus(await listRepos(ctx, false, unknownIntegration), 404, "list repositories of an unknown integration");
    },
  },
  {
    id: "REPO-LIST-006",
    level: "MUST",
    tags: [...op3, "validation"],
    statement: "An integration_id that is not a UUID is rejected with a 4xx",
    specRef: 'interface-spec: 3. List code-host repositories ("Path parameter integration_id (uuid, required)")',
    needs: [],
    async run(ctx) {
      for (const bad of ["not-a-uuid", "12345", "3f1c2a9e-5b7d-4e2f-8a6c-1d0e9b8a7c6"])
        expect4xx(await listRepos(ctx, false, bad), `list repositories of integration '${bad}'`);
    },
  },
  {
    id: "REPO-LIST-007",
    level: "SHOULD",
    tags: [...op3, "validation"],
    statement: "An integration_id that is not a UUID answers 422",
    specRef: "D-16 (422 when a request breaks the schema)",
    needs: [],
    async run(ctx) {
      expectStatus(await listRepos(ctx, false, "not-a-uuid"), 422, "list repositories of integration 'not-a-uuid'");
    },
  },
  {
    id: "REPO-LIST-008",
    level: "SHOULD",
    tags: op4,
    statement: `Operation 4 is GET ${operation("listManagedCodehostRepositories").path} and answers 200 with repository records of that integration`,
    specRef: "D-10 (operation 4 path); interface-spec: 4. same record shape as operation 3",
    needs: ["managedIntegration"],
    async run(ctx) {
      const id = ctx.config.managedIntegrationId!;
      // the profile's path itself, whatever --operation-path says (D-382): where operation 4 lives is D-10's choice
      const ex = await ctx.send({
        method: "GET",
        path: operation("listManagedCodehostRepositories").path.replace("{integration_id}", id),
        operation: "listManagedCodehostRepositories",
      });
      expectStatus(ex, 200, "list managed code-host repositories");
      const records = jsonArray(ex, "list managed repositories") as Json[];
      if (!ctx.config.stateless) {
        const wrong = records.filter((r) => String(r.host_integration_id).toLowerCase() !== id.toLowerCase());
        ensure(wrong.length === 0, `${wrong.length} records carry another host_integration_id`, ex);
      }
    },
  },
  {
    id: "REPO-LIST-009",
    level: "SHOULD",
    tags: [...op4, "ordering"],
    statement: "Managed repositories are ordered by owner, then name",
    specRef: "D-08",
    needs: ["managedIntegration"],
    async run(ctx) {
      const ex = await listRepos(ctx, true, ctx.config.managedIntegrationId!);
      expect2xx(ex, "list managed repositories");
      const problem = sortedByOwnerThenName(jsonArray(ex, "list") as Json[]);
      ensure(!problem, problem ?? "", ex);
    },
  },
  {
    id: "REPO-LIST-010",
    level: "SHOULD",
    tags: op4,
    statement: "Operation 4 with an unknown managed integration answers 404, and with a malformed id 422",
    specRef: "D-10, D-13 to D-15, D-16",
    needs: ["state"],
    async run(ctx) {
      expectStatus(
        await listRepos(ctx, true, unknownIntegration),
        404,
        "list managed repositories of an unknown integration",
      );
      expectStatus(
        await listRepos(ctx, true, "not-a-uuid"),
        422,
        "list managed repositories of integration 'not-a-uuid'",
      );
    },
  },
  {
    id: "REPO-LIST-011",
    level: "SHOULD",
    tags: [...op3, ...op4.slice(0, 1)],
    statement:
      "Each listing answers for integrations of its own kind: the managed integration on operation 3, and the plain one on operation 4, answer 404 with a problem detail that says why",
    specRef: "D-10 (each listing answers for its own kind of integration), D-16 (a refusal says why)",
    needs: ["integration", "managedIntegration", "state"],
    async run(ctx) {
      const wrongKind = [
        {
          ex: await listRepos(ctx, false, ctx.config.managedIntegrationId!),
          what: "the managed integration on operation 3",
        },
        { ex: await listRepos(ctx, true, ctx.config.integrationId!), what: "the plain integration on operation 4" },
      ];
      for (const { ex, what } of wrongKind) {
        expectStatus(ex, 404, `list ${what}`);
        // a 404 of a known id says why, as every refusal does (D-16)
        const detail = jsonObject(ex, `the 404 of ${what}`).detail;
        ensure(typeof detail === "string" && detail.trim() !== "", `the 404 of ${what} has no detail`, ex);
      }
    },
  },
  {
    id: "REPO-LIST-012",
    level: "SHOULD",
    tags: [...op3, ...op4.slice(0, 1)],
    statement:
      "An integration id in the path written in upper case lists the same repositories as in lower case, on operation 3 and on operation 4",
    specRef: "D-190 (a uuid in a request in either letter case; RFC 9562 §4)",
    needs: ["integration"],
    async run(ctx) {
      for (const { managed, id, what } of configuredIntegrations(ctx)) {
        const lower = await listRepos(ctx, managed, id.toLowerCase());
        expect2xx(lower, `list ${what} of ${id.toLowerCase()}`);
        const upper = await listRepos(ctx, managed, id.toUpperCase());
        expect2xx(upper, `list ${what} of ${id.toUpperCase()}`);
        ensure(
          JSON.stringify(jsonArray(upper, "upper case")) === JSON.stringify(jsonArray(lower, "lower case")),
          `the ${what} of ${id.toUpperCase()} differ from those of ${id.toLowerCase()}`,
          upper,
        );
      }
    },
  },
  {
    id: "REPO-LIST-013",
    level: "MUST",
    tags: [...op3, ...op4.slice(0, 1)],
    statement:
      "Each listing of operations 3 and 4 holds each repository once: no two of its records carry the same id (operation 4 is judged where it answers 2xx)",
    specRef:
      'interface-spec: Code-host repository record (id "Repository ID"); 3. and 4. (a JSON array of the repositories reachable through the integration)',
    needs: ["integration"],
    async run(ctx) {
      for (const { managed, id, what } of configuredIntegrations(ctx)) {
        const ex = await listRepos(ctx, managed, id);
        if (managed && (ex.response.status < 200 || ex.response.status > 299)) {
          ctx.note(`operation 4 answered ${ex.response.status} where the run looks for it: not judged`);
          continue;
        }
        expect2xx(ex, `list ${what} of ${id}`);
        const repeated = repeatedId(jsonArray(ex, `list ${what}`) as Json[]);
        ensure(repeated === undefined, `the ${what} of ${id}: ${repeated}`, ex);
      }
    },
  },
];
