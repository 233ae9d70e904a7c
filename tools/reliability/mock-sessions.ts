/**
 * Mock sessions scenario of `npm run reliability` (D-470): the stateful mock (`deployment-mock --stateful`, a child
 * process, its table at its default 1,000 sessions) under made-up keys sending one `GET /v2/deployments?limit=1`
 * each, after a victim created a provider. Holds: the victim's provider is still listed (a full table refuses a new
 * key with a 429 and `Retry-After`, never dropping another key's only session), and no answer is a 5xx. The limit per
 * client address is raised past the flood, so the table's own bound is what the flood meets (all come from loopback).
 */
import { spawn } from "node:child_process";
import { operation, requestExamples } from "../../contract/index.js";
import { repoRoot } from "../harness/reference.js";
import type { ScenarioResult } from "./scenario.js";

interface MockSessionsOptions {
  /** Made-up keys, one list each (1,000 in the red-team run). */
  keys: number;
  log(message: string): void;
}

const launcher = `
import { startMock } from "./mock/src/mock.ts";
const mock = await startMock({ port: 0, stateful: true, maxSessionsPerAddress: 100000 });
process.stdout.write(mock.url + "\\n");
`;

export async function mockSessionsScenario(options: MockSessionsOptions): Promise<ScenarioResult> {
  const failures: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", launcher], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (data: Buffer) => resolve(data.toString("utf8").trim()));
      child.once("exit", (code) => reject(new Error(`the mock exited ${code} before it listened`)));
    });
    const victim = { "X-Api-Key": "victim", "Content-Type": "application/json" };
    const provider = requestExamples(operation("createOAuthProvider"))[0]!.value as { provider_id: string };
    const created = await fetch(`${url}/v2/auth/providers`, {
      method: "POST",
      headers: victim,
      body: JSON.stringify(provider),
    });
    await created.arrayBuffer();
    if (!created.ok) failures.push(`the victim's provider create was ${created.status}`);
    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    for (let i = 0; i < options.keys; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, options.keys - i) }, async (_, j) => {
          const response = await fetch(`${url}/v2/deployments?limit=1`, {
            headers: { "X-Api-Key": `made-up-${i + j}` },
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 429) retryAfter ??= response.headers.get("retry-after");
        }),
      );
    const counted = [...statuses].map(([status, count]) => `${count} × ${status}`).join(", ");
    options.log(`mock-sessions: ${counted}`);
    for (const status of statuses.keys())
      if (status >= 500) failures.push(`a made-up key's list was answered ${status}`);
    if (statuses.has(429) && !(Number(retryAfter) > 0)) failures.push("a 429 came without a Retry-After");
    const listed = await fetch(`${url}/v2/auth/providers`, { headers: victim });
    const text = await listed.text();
    if (listed.status !== 200 || !text.includes(provider.provider_id))
      failures.push(`the victim's provider is gone after ${options.keys} made-up keys (${listed.status})`);
    if (exited !== undefined) failures.push(`the mock exited (${exited}) under the flood`);
    return {
      name: "mock-sessions",
      failures,
      summary: [`${options.keys} made-up keys, one list each: ${counted}; the victim's provider still listed`],
    };
  } catch (error) {
    const how = exited !== undefined ? ` (it exited ${exited})` : "";
    failures.push(`the mock stopped answering: ${(error as Error).message}${how}`);
    return { name: "mock-sessions", failures, summary: [] };
  } finally {
    child.kill("SIGTERM");
  }
}
