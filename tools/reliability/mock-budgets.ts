/**
 * Mock budgets scenario of `npm run reliability` (D-395..D-397): the stateful mock (`deployment-mock --stateful`, a
 * child process) under made-up keys that PUT 0.9 MB states into every session they may hold, fill the `default`
 * session and send a victim's session id. Holds: the mock lives through it with its heap capped at `heapMiB` (what
 * the sessions keep is bounded, D-396: without the bound the flood took the mock's default heap and crashed it), it
 * answers every request (no 5xx but the budget's 503), and the victim's sessions, `default` and named, keep its
 * deployment. The peak RSS is printed (V8 collects lazily, so it says more of the heap cap than of what is kept).
 */
import { spawn } from "node:child_process";
import { followPeakRss, repoRoot } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface MockBudgetsOptions {
  /** Made-up keys, each putting a state into `sessionsPerKey` sessions (36 and 20 in the red-team run). */
  keys: number;
  sessionsPerKey: number;
  log(message: string): void;
}

/** The mock's heap cap under the flood: sessions keep about 3.4 MiB of heap per 0.95 MB state, 128 MiB of states in all (D-396). */
const heapMiB = 768;

/** A state of about 0.9 MB that the sandbox can answer from: 900 deployments with long names and images. */
function heavyState(): string {
  const deployments = Array.from({ length: 900 }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const n = String(i).padStart(12, "0");
    return {
      id: `00000000-0000-4000-8000-${n}`,
      tenant_id: "00000000-0000-4000-8000-000000000000",
      name: `flood-${"n".repeat(200)}-${i}`,
      source: "internal_container",
      source_config: {},
      source_revision_config: { image_uri: `registry.example/${"a".repeat(420)}:1` },
      secrets: [],
      secret_references: null,
      image_version: null,
      status: "READY",
      created_at: at,
      updated_at: at,
      latest_revision_id: null,
      active_revision_id: null,
    };
  });
  return JSON.stringify({ format: "deployment-mock-state/1", deployments: deployments.reverse(), oauth_providers: [] });
}

const launcher = `
import { startMock } from "./mock/src/mock.ts";
const mock = await startMock({ port: 0, stateful: true });
process.stdout.write(mock.url + "\\n");
`;

export async function mockBudgetsScenario(options: MockBudgetsOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const node = [`--max-old-space-size=${heapMiB}`, "--import", "tsx", "--input-type=module", "-e", launcher];
  const child = spawn(process.execPath, node, {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  const peak = followPeakRss(child.pid!, 100);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (data: Buffer) => resolve(data.toString("utf8").trim()));
      child.once("exit", (code) => reject(new Error(`the mock exited ${code} before it listened`)));
    });
    const ask = async (method: string, path: string, key: string, session?: string, body?: string) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          "X-Api-Key": key,
          "Content-Type": "application/json",
          ...(session === undefined ? {} : { "X-Mock-Session": session }),
        },
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      return { status: response.status, text };
    };
    const create = (name: string) =>
      JSON.stringify({
        name,
        source: "internal_container",
        source_config: {},
        source_revision_config: { image_uri: "registry.example/victim:1" },
        secrets: [],
      });
    const state = heavyState();
    // a made-up key is the first to use `default`, and fills it
    await ask("PUT", "/__mock/state", "made-up-first", undefined, state);
    for (const session of [undefined, "team"]) {
      const made = await ask("POST", "/v2/deployments", "victim", session, create(`victims-${session ?? "default"}`));
      if (made.status !== 201)
        failures.push(`the victim's create in its ${session ?? "default"} session was ${made.status}`);
    }
    const statuses = new Map<number, number>();
    for (let key = 0; key < options.keys; key++) {
      for (let session = 0; session < options.sessionsPerKey; session++) {
        const { status } = await ask("PUT", "/__mock/state", `made-up-${key}`, `k${key}-s${session}`, state);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // the same key in the victim's named session and the default one: a state put and a create
      for (const session of ["team", undefined]) {
        const { status } = await ask("PUT", "/__mock/state", `made-up-${key}`, session, state);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await ask("POST", "/v2/deployments", `made-up-${key}`, session, create(`made-up-${key}`));
      }
    }
    options.log(`mock-budgets: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")}`);
    for (const status of statuses.keys())
      if (status >= 500 && status !== 503) failures.push(`a state put was answered ${status}`);
    for (const session of [undefined, "team"]) {
      const where = session ?? "default";
      const name = `victims-${where}`;
      const { status, text } = await ask("GET", `/v2/deployments?name_contains=${name}`, "victim", session);
      if (status !== 200 || !text.includes(name))
        failures.push(`the victim's ${where} session lost its deployment (${status})`);
      const again = await ask("POST", "/v2/deployments", "victim", session, create(`${name}-after`));
      if (again.status !== 201)
        failures.push(`the victim's create in its ${where} session was ${again.status} after the flood`);
      const reset = await ask("POST", "/__mock/reset", "victim", session);
      if (reset.status !== 204) failures.push(`the victim's reset of its ${where} session was ${reset.status}`);
    }
    const peakMiB = peak.peakKiB() / 1024;
    if (exited !== undefined) failures.push(`the mock exited (${exited}) under the flood`);
    return {
      name: "mock-budgets",
      failures,
      summary: [
        `${options.keys} made-up keys × ${options.sessionsPerKey + 2} sessions, a ${(state.length / 1e6).toFixed(2)} MB state each: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")}`,
        `the mock lived with its heap capped at ${heapMiB} MiB, peak RSS ${peakMiB.toFixed(0)} MiB; the victim's default and named sessions kept`,
      ],
    };
  } catch (error) {
    const how = exited !== undefined ? ` (it exited ${exited})` : "";
    failures.push(`the mock stopped answering: ${(error as Error).message}${how}`);
    return { name: "mock-budgets", failures, summary: [] };
  } finally {
    peak.stop();
    child.kill("SIGTERM");
  }
}
