/** Fault and latency modes of the mocks (D-80). */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { maxPreferDelayMs } from "./fault-bounds.js";
import { type FaultOptions, parseFailRate, parseLatency, withFaults } from "./faults.js";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(options: FaultOptions): Promise<string> {
  server = http.createServer(withFaults((_request, response) => response.end("ok"), options));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("parsing the flags", () => {
  const latency = [
    { given: "100", want: { min: 100, max: 100 } },
    { given: "50-300", want: { min: 50, max: 300 } },
  ];
  it.each(latency)("--latency $given", ({ given, want }) => expect(parseLatency(given)).toEqual(want));
  it.each(["", "-5", "300-50", "fast"])("rejects --latency %j", (given) =>
    expect(() => parseLatency(given)).toThrow(/--latency/),
  );
  it.each([
    ["0", 0],
    ["0.05", 0.05],
    ["1", 1],
  ] as const)("--fail-rate %s", (given, want) => expect(parseFailRate(given)).toBe(want));
  it.each(["1.5", "-0.1", "x"])("rejects --fail-rate %j", (given) =>
    expect(() => parseFailRate(given)).toThrow(/--fail-rate/),
  );
});

describe("withFaults", () => {
  it("passes requests through when no fault is asked for", async () => {
    const url = await serve({});
    expect(await (await fetch(url)).text()).toBe("ok");
  });

  it("answers 503 and 429 problems with Retry-After on Prefer: fault=", async () => {
    const url = await serve({});
    for (const status of [503, 429]) {
      const response = await fetch(url, { headers: { Prefer: `fault=${status}` } });
      expect(response.status).toBe(status);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ type: "about:blank", status });
    }
  });

  it("resets the connection, and holds it without an answer on timeout", async () => {
    const url = await serve({ timeoutHoldMs: 100 });
    await expect(fetch(url, { headers: { Prefer: "fault=reset" } })).rejects.toThrow();
    await expect(fetch(url, { headers: { Prefer: "fault=timeout" }, signal: AbortSignal.timeout(50) })).rejects.toThrow(
      /abort|timeout/i,
    );
  });

  it("fails the share of requests --fail-rate asks for", async () => {
    const draws = [0.01, 0.5, 0.02, 0.9];
    const url = await serve({ failRate: 0.05, random: () => draws.shift() ?? 0.9 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([503, 200, 503, 200]);
  });

  it("delays answers by Prefer: delay= and within --latency bounds", async () => {
    const url = await serve({ latency: { min: 40, max: 60 }, random: () => 0.5 });
    let started = performance.now();
    await fetch(url);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    started = performance.now();
    await fetch(url, { headers: { Prefer: "delay=120" } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it("says which faults exist when asked for an unknown one", async () => {
    const url = await serve({});
    const response = await fetch(url, { headers: { Prefer: "fault=explode" } });
    expect(response.status).toBe(400);
    expect((await response.json()).detail).toMatch(/reset, timeout, 503, 429/);
  });
});

describe("Prefer: delay= (D-114)", () => {
  it("waits at most 30 s however long a delay is asked for", () => {
    vi.useFakeTimers();
    try {
      let answered = false;
      const handler = withFaults(() => {
        answered = true;
      });
      handler({ headers: { prefer: "delay=100000" } } as unknown as http.IncomingMessage, {} as http.ServerResponse);
      vi.advanceTimersByTime(maxPreferDelayMs - 1);
      expect(answered).toBe(false);
      vi.advanceTimersByTime(1);
      expect(answered).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
