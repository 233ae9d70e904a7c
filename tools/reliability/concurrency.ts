/**
 * Concurrency scenario of `npm run reliability`: 50 concurrent creates of one name give exactly
 * one 201 and 49 409s, on SQLite and on PostgreSQL (skipped with a note when it is unreachable).
 */
import { demo } from "../../contract/index.js";
import type { ChildServer } from "../../server/testing/child-server.js";
import { onEachStore } from "../harness/each-store.js";
import { type Caller, call, templateDeployment, walkDeployments } from "../harness/http.js";
import type { ScenarioResult } from "./scenario.js";

interface ConcurrencyOptions {
  rounds: number;
  parallel: number;
  dataDir: string;
  logDir: string;
  log(message: string): void;
}

async function rounds(
  server: ChildServer,
  store: string,
  options: ConcurrencyOptions,
  failures: string[],
): Promise<string> {
  const tally = new Map<string, number>();
  for (let round = 0; round < options.rounds; round++) {
    // Alternate tenants so both the default tenant and an explicit X-Tenant-Id take part.
    const caller: Caller =
      round % 2 === 0
        ? { url: server.url, apiKey: demo.acme.apiKey }
        : { url: server.url, apiKey: demo.acme.apiKey, tenantId: demo.acme.stagingTenantId };
    const name = `cc-${store.toLowerCase()}-${round}`;
    const answers = await Promise.all(
      Array.from({ length: options.parallel }, () =>
        call(caller, "POST", "/v2/deployments", templateDeployment(name)).catch((error: Error) => ({
          status: 0,
          body: error.message,
          contentType: "",
        })),
      ),
    );
    const counts = new Map<number, number>();
    for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
    for (const [status, n] of counts) tally.set(String(status), (tally.get(String(status)) ?? 0) + n);
    const created = counts.get(201) ?? 0;
    const conflicts = counts.get(409) ?? 0;
    if (created !== 1 || conflicts !== options.parallel - 1) {
      const other = answers.find((a) => a.status !== 201 && a.status !== 409);
      failures.push(
        `${store} round ${round} (${name}): ${[...counts].map(([s, n]) => `${n}x ${s}`).join(", ")} (want 1x 201, ${options.parallel - 1}x 409)${other ? `; e.g. ${other.status} ${JSON.stringify(other.body).slice(0, 200)}` : ""}`,
      );
    }
    const listed = (await walkDeployments(caller, { query: `name_contains=${name}` })).deployments.filter(
      (d) => d.name === name,
    ).length;
    if (listed !== 1) failures.push(`${store} round ${round}: ${listed} deployments named ${name} listed (want 1)`);
  }
  return `${store}: ${options.rounds} rounds of ${options.parallel} concurrent creates of one name → ${[...tally].map(([s, n]) => `${s}: ${n}`).join(", ")}`;
}

export async function concurrencyScenario(options: ConcurrencyOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const summary = await onEachStore(
    { name: "concurrency", dataDir: options.dataDir, logDir: options.logDir, validateResponses: true },
    async (server, store) => [await rounds(server, store, options, failures)],
  );
  return { name: "concurrency", failures, summary };
}
