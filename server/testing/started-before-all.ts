/** A server a test file starts once, whose failure to start fails each test instead of skipping them all (D-360). */
import { afterAll, beforeAll, beforeEach } from "vitest";

/**
 * Runs `start()` in a beforeAll and closes what it started after the file. A beforeAll that throws makes vitest
 * skip the file's tests, which the mutation run's Stryker counts as passing, so a mutant that keeps the server from
 * starting would survive; here the failure is thrown again before each test, and every test fails with it.
 */
export function startedBeforeAll(start: () => Promise<{ close(): Promise<void> }>): void {
  let started: { close(): Promise<void> } | undefined;
  let failure: unknown;
  beforeAll(async () => {
    try {
      started = await start();
    } catch (error) {
      failure = error;
    }
  });
  beforeEach(() => {
    if (failure !== undefined) throw failure;
  });
  afterAll(() => started?.close());
}
