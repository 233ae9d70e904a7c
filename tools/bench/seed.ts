/**
 * Seeds deployments over HTTP with concurrent creates (100,000 deployments across two tenants in a full
 * run), through the public createDeployment operation only; the rate doubles as the create figure of the run.
 */
import { operation } from "../../contract/index.js";
import { type Caller, call, templateDeployment } from "../harness/http.js";
import { type LoadFigures, runLoad } from "./load.js";

interface SeedResult extends LoadFigures {
  created: number;
  prefix: string;
}

/** Creates `count` internal-template deployments named `<prefix>-<n>` in the caller's tenant. */
export async function seedDeployments(
  caller: Caller,
  count: number,
  prefix: string,
  connections = 10,
): Promise<SeedResult> {
  const { path } = operation("createDeployment");
  let next = 0;
  const headers: Record<string, string> = { "x-api-key": caller.apiKey };
  if (caller.tenantId) headers["x-tenant-id"] = caller.tenantId;
  const figures = await runLoad({
    url: caller.url,
    path,
    method: "POST",
    headers,
    body: () => JSON.stringify(templateDeployment(`${prefix}-${next++}`)),
    connections,
    durationS: 0,
    amount: count,
    warmupS: 0,
  });
  const created = figures.statusCounts["201"] ?? 0;
  if (created !== count) {
    // Show what the server said to one more create, so a failing seed explains itself.
    const sample = await call(caller, "POST", path, templateDeployment(`${prefix}-probe`));
    throw new Error(
      `seeding ${prefix}: ${created} of ${count} creates answered 201 (status counts ${JSON.stringify(figures.statusCounts)}, errors ${figures.errors}); a probe create answered ${sample.status} ${JSON.stringify(sample.body).slice(0, 400)}`,
    );
  }
  return { ...figures, created, prefix };
}
