/** Registers the checks of one area as vitest tests carrying their id, level and tags in task meta. */
import { test } from "vitest";
import { answersOf } from "../answers.js";
import type { Check } from "../check.js";
import { CheckFailure, CheckSkip } from "../check.js";
import type { RunConfig } from "../config.js";
import { toCurl } from "../curl.js";
import { TransportError } from "../http.js";
import { createContext } from "../runtime.js";
import { isSelected, unmetNeed } from "../selection.js";
import type { CheckMeta } from "../verdict.js";

/** The run configuration handed over by conformance/cli.ts. */
function runConfig(): RunConfig {
  const raw = process.env.CONFORMANCE_RUN_CONFIG;
  if (!raw) throw new Error("conformance checks run through `npm run conformance` (CONFORMANCE_RUN_CONFIG is not set)");
  return JSON.parse(raw) as RunConfig;
}

/** Declares one test per selected check of an area. */
export function defineArea(area: string, checks: Check[]): void {
  const config = runConfig();
  const fixtures = new Map<string, Promise<unknown>>();
  const selected = checks.filter((c) => isSelected(c, config));
  if (selected.length === 0) {
    test.skip(`${area}: no check selected`, () => {});
    return;
  }
  for (const check of selected) {
    test(`${check.id} ${check.statement}`, async (t) => {
      const meta: CheckMeta = {
        id: check.id,
        level: check.level,
        tags: check.tags,
        statement: check.statement,
        specRef: check.specRef,
        area,
      };
      t.task.meta.check = meta;
      const unmet = unmetNeed(check, config);
      if (unmet) {
        t.skip(unmet);
        return;
      }
      const ctx = createContext(config, fixtures, check.id);
      try {
        await check.run(ctx);
      } catch (error) {
        if (error instanceof CheckSkip) {
          record(meta, ctx);
          t.skip(error.reason);
          return;
        }
        const exchange =
          error instanceof CheckFailure ? (error.exchange ?? ctx.exchanges.at(-1)) : ctx.exchanges.at(-1);
        const message =
          error instanceof CheckFailure
            ? error.message
            : error instanceof TransportError
              ? `the target did not answer: ${error.message}`
              : `the check could not complete: ${(error as Error).stack ?? String(error)}`;
        meta.failure = {
          message,
          ...(exchange
            ? { exchange, curl: toCurl(exchange.request) }
            : error instanceof TransportError
              ? { curl: toCurl(error.request) }
              : {}),
          ...(error instanceof CheckFailure ? {} : { error: true }),
        };
        record(meta, ctx);
        throw new Error(message);
      }
      record(meta, ctx);
    });
  }
}

function record(meta: CheckMeta, ctx: ReturnType<typeof createContext>): void {
  meta.created = ctx.createdResources;
  meta.notes = ctx.notes;
  meta.requests = ctx.exchanges.length;
  meta.answers = answersOf(ctx.exchanges);
  if (ctx.config.recordExchanges) meta.exchanges = ctx.exchanges;
}
