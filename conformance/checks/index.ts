/** Every check of the suite, by area. The runner (conformance/runner/runner.ts) runs them area by area. */
import type { Check } from "../runner/check.js";
import { authChecks } from "./auth.js";
import { boundChecks } from "./bounds.js";
import { corsChecks, resourceChecks } from "./browser.js";
import { connectionChecks } from "./connections.js";
import { deploymentBoundChecks } from "./deployment-bounds.js";
import { deploymentCreateChecks } from "./deployments-create.js";
import { deploymentListChecks } from "./deployments-list.js";
import { errorChecks } from "./errors.js";
import { fuzzChecks } from "./fuzz.js";
import { wrongTypeChecks } from "./fuzz-wrong-types.js";
import { headerChecks } from "./headers.js";
import { heavyPageChecks } from "./heavy-pages.js";
import { isolationChecks } from "./isolation.js";
import { jsonTextChecks } from "./json-texts.js";
import { attributionLawChecks } from "./laws-attribution.js";
import { concurrencyLawChecks } from "./laws-concurrency.js";
import { foreignValueLawChecks } from "./laws-foreign-values.js";
import { httpLawChecks } from "./laws-http.js";
import { identityLawChecks } from "./laws-identity.js";
import { independenceLawChecks } from "./laws-independence.js";
import { jsonTextLawChecks } from "./laws-json-texts.js";
import { serverErrorLawChecks } from "./laws-server-errors.js";
import { spellingLawChecks } from "./laws-spellings.js";
import { timeLawChecks } from "./laws-time.js";
import { listFairnessChecks } from "./list-fairness.js";
import { positiveChecks } from "./positive.js";
import { filterPropertyChecks } from "./properties-filters.js";
import { pathPropertyChecks } from "./properties-paths.js";
import { recordPropertyChecks } from "./properties-records.js";
import { textPropertyChecks } from "./properties-text.js";
import { providerChecks } from "./providers.js";
import { repositoryChecks } from "./repositories.js";
import { requestFramingChecks } from "./request-framing.js";
import { schemaChecks } from "./schema.js";
import { statefulChecks } from "./stateful.js";
import { statusChecks } from "./statuses.js";

/**
 * Areas in run order: one per operation and one per HTTP concern or kind of test; the checks of one area share their
 * fixtures. EDGE-* and SEM-* ids (former areas of their own) sit in the area of what they judge.
 */
export const areas = {
  providers: providerChecks,
  bounds: [...boundChecks, ...deploymentBoundChecks],
  repositories: repositoryChecks,
  "deployments-create": deploymentCreateChecks,
  "deployments-list": [...deploymentListChecks, ...heavyPageChecks, ...listFairnessChecks],
  auth: authChecks,
  isolation: isolationChecks,
  errors: [...errorChecks, ...jsonTextChecks],
  statuses: statusChecks,
  headers: [...headerChecks, ...requestFramingChecks, ...connectionChecks],
  cors: corsChecks,
  resources: resourceChecks,
  fuzz: [...fuzzChecks, ...wrongTypeChecks],
  stateful: statefulChecks,
  positive: positiveChecks,
  schema: schemaChecks,
  properties: [...pathPropertyChecks, ...recordPropertyChecks, ...textPropertyChecks, ...filterPropertyChecks],
  laws: [
    ...concurrencyLawChecks,
    ...independenceLawChecks,
    ...identityLawChecks,
    ...timeLawChecks,
    ...httpLawChecks,
    ...attributionLawChecks,
    ...spellingLawChecks,
    ...serverErrorLawChecks,
    ...foreignValueLawChecks,
    ...jsonTextLawChecks,
  ],
} satisfies Record<string, Check[]>;

export const allChecks: Check[] = Object.values(areas).flat();

/** The area of a check id: the id without its number (DEP-LIST-007 → DEP-LIST). */
export function idArea(id: string): string {
  return id.replace(/-\d+$/, "");
}
