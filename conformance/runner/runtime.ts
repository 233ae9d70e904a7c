/** The context a check runs with: an HTTP sender bound to the configuration, exchange log, created resources. */

import { answerProblems, type ContractLevel, matchPath, secretFields } from "../../contract/index.js";
import type { RunConfig } from "../cli/run-config.js";
import { runPrefix } from "../model/data.js";
import { sentBodyFields, sentQueryFields } from "../model/request-fields.js";
import { runAnswers } from "../model/run-answers.js";
import { runForeignValues } from "../model/run-foreign-values.js";
import { runIds } from "../model/run-ids.js";
import { runJsonTexts } from "../model/run-json-texts.js";
import { runServerErrors } from "../model/run-server-errors.js";
import { runTimes } from "../model/run-times.js";
import { cutMessage, tooManyValuesMessage } from "../target/bounded-read.js";
import { buildUrl, type Exchange, sendHttp, TransportError } from "../target/http-exchange.js";
import { keyHeader } from "../target/key-header.js";
import { type CheckWaits, sendWithinLimits } from "../target/rate-limit.js";
import { userSecrets } from "../target/redact.js";
import { seeAnswer, throwIfStopped } from "../target/run-budget.js";
import { throwIfFull } from "../target/target-full.js";
import { confirmGone, throwIfGone } from "../target/target-gone.js";
import {
  type Check,
  type CheckContext,
  CheckFailure,
  CheckSkip,
  type CreatedResource,
  type FixtureScope,
  type SendRequest,
} from "./check.js";
import { isNoVerdict } from "./no-verdict.js";

/** The context plus what the runner reads back after the check. */
interface RecordingContext extends CheckContext {
  readonly exchanges: Exchange[];
  readonly createdResources: CreatedResource[];
  readonly notes: string[];
  /**
   * 2xx answers that broke the contract schema, in order (D-244): the check goes on to its own assertion, which
   * is reported first; a breach fails the check only when the check itself found nothing.
   */
  readonly schemaBreaches: CheckFailure[];
  /** The 429 answers and the 503 answers with Retry-After this check waited for, and how long (D-380). */
  readonly waits: CheckWaits;
  /** `operationId field` of every request field and query parameter sent with a non-null value (D-490). */
  readonly sentFields: Set<string>;
}

/** Collects string values of secret fields in a request body so they are masked in the record. */
function secretsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const v of value) secretsIn(v, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (secretFields.has(k) && typeof v === "string") out.push(v);
      else secretsIn(v, out);
    }
  }
  return out;
}

/**
 * The level of the contract that judges a 2xx answer (D-221): a MUST check judges by the interface level only; a SHOULD check
 * judges its own create answers by the full contract, but a listing (records other checks or runs made, which may hold
 * spec-legal values beyond the profile) by the interface level too. SCHEMA-* judge records against the full contract.
 */
function answerLevel(level: Check["level"], method: string): ContractLevel {
  return level === "MUST" || method === "GET" ? "interface" : "full";
}

/** The contract operation a request exercised, from its method and path, when the check did not name it. */
function operationOf(method: string, path: string): string | undefined {
  const match = matchPath(method, path.split("?")[0]!);
  return match.kind === "operation" ? match.operation.id : undefined;
}

/** Fixtures shared by the checks of one area, or of one run (e.g. a set of deployments to page through), keyed by name. */
export type Fixtures = Map<string, Promise<unknown>>;

/**
 * Builds a context; `fixtures` is shared by the checks of one area, `runFixtures` by every check of the run. Names depend only on the
 * run prefix, the check id and a counter of this context, so a replay (same seed, one check) sends
 * the same names as the full run did but for the run prefix, which keeps them unique (no 409).
 */
export function createContext(
  config: RunConfig,
  fixtures: Fixtures,
  check: Pick<Check, "id" | "level">,
  runFixtures: Fixtures = new Map(),
): RecordingContext {
  const checkId = check.id;
  let nameCounter = 0;
  const nameTag = checkId.toLowerCase().replace(/[^a-z0-9]/g, "");
  const exchanges: Exchange[] = [];
  const createdResources: CreatedResource[] = [];
  const notes: string[] = [];
  const schemaBreaches: CheckFailure[] = [];
  const waits: CheckWaits = { answers: 0, waitedMs: 0 };
  const sentFields = new Set<string>();
  const prefix = runPrefix(config.runId);
  const ctx: RecordingContext = {
    config,
    level: check.level,
    prefix,
    exchanges,
    createdResources,
    notes,
    schemaBreaches,
    waits,
    sentFields,
    async send(request: SendRequest): Promise<Exchange> {
      const headers: Record<string, string> = { Accept: "application/json", ...config.headers };
      const auth = request.auth ?? "main";
      let keyRef: "main" | "other" | "literal" | "none" = "none";
      if (auth === "main") {
        Object.assign(headers, keyHeader(config, config.apiKey));
        keyRef = "main";
      } else if (auth === "other") {
        if (!config.otherApiKey) throw new CheckSkip("no --other-api-key given");
        Object.assign(headers, keyHeader(config, config.otherApiKey));
        keyRef = "other";
      } else if (auth !== "none") {
        Object.assign(headers, keyHeader(config, auth.key));
        keyRef = "literal";
      }
      const tenant = request.tenant ?? "default";
      if (tenant === "default") {
        if (config.tenantId && auth !== "other") headers["X-Tenant-Id"] = config.tenantId;
      } else if (tenant !== "none") headers["X-Tenant-Id"] = tenant;
      let body: string | Uint8Array | undefined;
      if (request.json !== undefined) {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(request.json);
      } else if (request.raw !== undefined) body = request.raw;
      Object.assign(headers, request.headers ?? {});
      const secrets = [
        ...userSecrets(config),
        ...secretsIn(request.json),
        ...(typeof auth === "object" && auth.masked ? [auth.key] : []),
      ];
      throwIfGone();
      throwIfStopped(config);
      // a 429 (with Retry-After or not) or a 503 with Retry-After is the target's rate limit, not its answer: waited for (D-380)
      const exchange = await sendWithinLimits(
        () =>
          sendHttp({
            method: request.method,
            url: buildUrl(config.baseUrl, request.path, request.query),
            headers,
            body,
            ...(request.streamed ? { streamed: true } : {}),
            keyRef,
            timeoutMs: config.timeoutMs,
            maxBytes: config.maxResponseBytes,
            maxValues: config.maxResponseValues,
            ...(config.minTransferRate > 0 ? { minBytesPerSecond: config.minTransferRate } : {}),
            secrets,
            userHeaders: Object.keys(config.headers),
            fetch: config.fetch,
          }),
        config,
        waits,
      ).catch(async (error: unknown) => {
        // an answer that never came counts toward the stop after slow answers (D-463)
        if (error instanceof TransportError && (error.code === "timeout" || error.code === "slow"))
          seeAnswer(config, undefined);
        // a refused or reset connection may mean the target is gone: conformance/target/target-gone.ts
        if (error instanceof TransportError) await confirmGone(config, error);
        throw error;
      });
      seeAnswer(config, exchange.durationMs);
      const operationId = request.operation ?? operationOf(request.method, request.path);
      if (operationId) exchange.operation = operationId;
      if (operationId)
        for (const field of [...sentBodyFields(request.json), ...sentQueryFields(request.path, request.query)])
          sentFields.add(`${operationId} ${field}`);
      exchanges.push(exchange);
      // every answer of the run joins its id registry, which LAW-005 judges (D-430)
      runIds(config).see(exchange, keyRef === "main" || keyRef === "other" ? keyRef : undefined);
      // and its times, which LAW-007 judges: none may lie after the answer arrived
      runTimes(config).see(exchange, Date.now());
      // and whether it keeps its request, which LAW-019 judges
      runAnswers(config).see(exchange);
      // and whether an allowed read was answered 500, which LAW-020 judges
      runServerErrors(config).see(request.path, exchange);
      // and whether a record shows a value only another create sent, which LAW-021 judges
      runForeignValues(config).see(exchange);
      // and whether its body is a well-sent JSON text, which LAW-022 to LAW-024 judge
      runJsonTexts(config).see(exchange);
      throwIfFull(exchange);
      if (exchange.response.cutAtBytes !== undefined)
        throw new CheckFailure(cutMessage(exchange.response.cutAtBytes), exchange);
      if (exchange.response.cutAtValues !== undefined)
        throw new CheckFailure(tooManyValuesMessage(exchange.response.cutAtValues), exchange);
      if (config.maxResponseTimeMs !== undefined && exchange.durationMs > config.maxResponseTimeMs)
        throw new CheckFailure(
          `the answer took ${exchange.durationMs} ms, more than --max-response-time ${config.maxResponseTimeMs} ms (D-87)`,
          exchange,
        );
      const status = exchange.response.status;
      if (request.operation && !request.noValidate && status >= 200 && status < 300) {
        // Any 2xx is judged by the documented success body: most operations only require a 2xx (D-06), the exact status is a check of its own.
        const level = answerLevel(check.level, request.method);
        const problems = answerProblems(
          request.operation,
          { status, contentType: exchange.response.headers["content-type"], body: exchange.json },
          { anySuccess: true, level },
        );
        if (problems.length > 0)
          schemaBreaches.push(
            new CheckFailure(
              `the ${status} answer of ${request.operation} does not match the ${level === "interface" ? "interface-level (D-220) schema" : "contract schema"}: ${problems.join("; ")}`,
              exchange,
            ),
          );
      }
      return exchange;
    },
    name(label: string): string {
      nameCounter += 1;
      return `${prefix}${label}-${nameTag}${nameCounter}`;
    },
    created(resource: CreatedResource): void {
      createdResources.push(resource);
    },
    fixture<T>(key: string, make: () => Promise<T>, scope: FixtureScope = "area"): Promise<T> {
      const shared = scope === "run" ? runFixtures : fixtures;
      let p = shared.get(key) as Promise<T> | undefined;
      if (!p) {
        const made = make();
        p = made;
        shared.set(key, made);
        // a MUST check's no-verdict skip is its own: the next check (a SHOULD one may fail on it) makes the fixture again
        made.catch((error: unknown) => {
          if (isNoVerdict(error) && shared.get(key) === made) shared.delete(key);
        });
      }
      return p;
    },
    skip(reason: string): never {
      throw new CheckSkip(reason);
    },
    note(text: string): void {
      notes.push(text);
    },
  };
  return ctx;
}
