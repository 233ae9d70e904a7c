/** Connection floods (D-465 to D-467): idle connections get their 408 and lose their descriptor; the caps in all and per address close the excess; real requests still answered. */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "./testing/child-server.js";
import { descriptorCount, type IdleFlood, openIdleConnections, tallyOutcomes } from "./testing/idle-connections.js";
import { acmeKey } from "./testing/test-server.js";

/** The status of one real list, from 127.0.0.1 on a fresh connection. */
function listStatus(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get(
      `${url}/v2/deployments?limit=1`,
      { headers: { "X-Api-Key": acmeKey }, agent: false },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

/** The server's descriptor count once it is at most `bound`, or the last count after 100 looks 100 ms apart. */
async function descriptorsDownTo(pid: number, bound: number): Promise<number> {
  let count = descriptorCount(pid);
  for (let look = 0; look < 100 && count > bound; look++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = descriptorCount(pid);
  }
  return count;
}

let child: ChildServer | undefined;
let flood: IdleFlood | undefined;
afterEach(async () => {
  flood?.destroy();
  await child?.stop();
  child = undefined;
});

// Other loopback addresses (127.0.0.2) and /proc/<pid>/fd are Linux's.
describe.skipIf(process.platform !== "linux")("a flood of idle connections", () => {
  const cases = [
    {
      given: "50 idle connections from one address, 20 allowed per address",
      env: { HEADERS_TIMEOUT_MS: "500", MAX_CONNECTIONS_PER_ADDRESS: "20" },
      want: { "408": 20, "503 Retry-After 1": 30 },
    },
    {
      given: "50 idle connections, 20 in all, no cap per address",
      env: { HEADERS_TIMEOUT_MS: "500", MAX_CONNECTIONS: "20", MAX_CONNECTIONS_PER_ADDRESS: "0" },
      want: { "408": 20, closed: 30 },
    },
  ];
  it.each(cases)("$given: each closed by the server, descriptors back to the baseline", async ({ env, want }) => {
    child = await startChildServer({ env: { ...env, LOG_LEVEL: "warn" } });
    // The first request opens what the store opens lazily; the baseline is counted after it.
    expect(await listStatus(child.url)).toBe(200);
    const baseline = descriptorCount(child.pid);
    const opened = openIdleConnections(child.url, 50, "127.0.0.2");
    flood = opened;
    // Only the server closes these connections: without it, this waits until the test's timeout.
    expect(tallyOutcomes(await Promise.all(opened.outcomes))).toEqual(want);
    expect(await descriptorsDownTo(child.pid, baseline + 5)).toBeLessThanOrEqual(baseline + 5);
    expect(await listStatus(child.url)).toBe(200);
  });

  it("answers another address's list while one address holds its cap", async () => {
    child = await startChildServer({
      env: { HEADERS_TIMEOUT_MS: "30000", MAX_CONNECTIONS_PER_ADDRESS: "20", LOG_LEVEL: "warn" },
    });
    const opened = openIdleConnections(child.url, 30, "127.0.0.2");
    flood = opened;
    // Ten are refused at once, while the twenty held wait for their 30 s head timeout.
    const refused = await Promise.race([
      Promise.all(opened.outcomes.slice(20)),
      Promise.all(opened.outcomes.slice(0, 20)),
    ]);
    expect(tallyOutcomes(refused)).toEqual({ "503 Retry-After 1": 10 });
    expect(await listStatus(child.url)).toBe(200);
  });
});
