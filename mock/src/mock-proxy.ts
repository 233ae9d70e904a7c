/**
 * `deployment-mock proxy --upstream URL` (`npm run mock:proxy`): Prism in proxy mode in front of any implementation of the
 * contract, reporting every request and response that breaks it. Traffic passes
 * unchanged (no `--errors`); the front reads Prism's `sl-violations` header of each answer, prints
 * the violating exchanges, and prints a summary on exit (and writes it as JSON with `--report`). With
 * `--record FILE` it also writes, on exit, what the upstream answered as a seed of the stateful mock (D-323), never a
 * secret; an answer that shows a secret or echoes a credential breaks the contract (D-398).
 */
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseCommandLine } from "../../common/cli.js";
import { forward, writeAnswer } from "../../common/http-forward.js";
import { bodyWithinLimit } from "./body-limit.js";
import { freePort } from "./free-port.js";
import { writePrismDocument } from "./prism-document.js";
import { startPrism } from "./prism-process.js";
import { credentialsOf, secretLeaks } from "./secret-leaks.js";
import { SeedRecorder } from "./seed-recorder.js";
import { formatExchange, formatSummary, type ViolatingExchange, ViolationReport } from "./violation-report.js";
import { parseViolationsHeader } from "./violations.js";

/** Options of startContractProxy. */
export interface ContractProxyOptions {
  /** The implementation under check, e.g. `http://127.0.0.1:8080`. */
  upstream: string;
  /** Port of the proxy; 0 picks a free one. Default 4020. */
  port?: number;
  /** Called with each violating exchange as it happens. */
  onViolation?: (exchange: ViolatingExchange) => void;
  /** Takes every exchange that passes, e.g. to record a seed (D-323). */
  recorder?: SeedRecorder;
  /** Bytes of a request body it takes; a larger one is a 413 (the sandbox's 1 MiB by default, D-472). */
  bodyLimitBytes?: number;
}

/** A running contract proxy. */
export interface ContractProxy {
  url: string;
  report: ViolationReport;
  close(): Promise<void>;
}

const host = "127.0.0.1";

/** Starts Prism's proxy and the recording front. */
export async function startContractProxy(options: ContractProxyOptions): Promise<ContractProxy> {
  const upstream = new URL(options.upstream);
  const document = await writePrismDocument();
  const prismPort = await freePort();
  let prism: Awaited<ReturnType<typeof startPrism>>;
  try {
    prism = await startPrism({
      args: [
        "proxy",
        document.path,
        upstream.origin,
        "--host",
        host,
        "--port",
        String(prismPort),
        "--cors=false",
        "--verboseLevel",
        "info",
      ],
    });
  } catch (error) {
    await document.remove();
    throw error;
  }
  const target = new URL(prism.url);
  const report = new ViolationReport();
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await bodyWithinLimit(incoming, outgoing, options.bodyLimitBytes);
      if (body === undefined) return;
      const response = await forward(target, incoming, body);
      const header = response.headers["sl-violations"];
      const credentials = credentialsOf(incoming.headers);
      const violations = [
        ...parseViolationsHeader(Array.isArray(header) ? header.join(",") : header),
        ...secretLeaks(jsonOf(response.body), response.headers, credentials),
      ];
      const exchange = report.record(incoming.method ?? "GET", incoming.url ?? "/", response.status, violations);
      if (exchange) options.onViolation?.(exchange);
      options.recorder?.observe(
        incoming.method ?? "GET",
        incoming.url ?? "/",
        response.status,
        response.body,
        credentials,
      );
      writeAnswer(outgoing, response);
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "application/problem+json" });
      outgoing.end(
        JSON.stringify({
          type: "urn:deployment-service:problem:internal",
          title: "Contract proxy failed",
          status: 502,
          detail: String(error),
        }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4020, host, () => resolve());
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    report,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prism.stop();
      await document.remove();
    },
  };
}

/** A body as JSON, or its text when it is not JSON (a credential echoed in plain text is still found). */
function jsonOf(body: Buffer): unknown {
  const text = body.toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const usage = `Usage: deployment-mock proxy --upstream URL [--port N] [--report FILE] [--record FILE]
  --upstream URL   the implementation to check, e.g. http://127.0.0.1:8080 (default: UPSTREAM_URL)
  --port N         port of the proxy on 127.0.0.1 (default 4020; 0 picks a free one)
  --report FILE    write the summary and the violating exchanges there as JSON on exit
  --record FILE    write what the upstream answered (deployments, providers, repositories; no secret, no credential)
                   there on exit, as a seed for deployment-mock --stateful --seed FILE`;

/** The command line `deployment-mock proxy --upstream URL` (`npm run mock:proxy -- ...`); runs until SIGINT or SIGTERM. */
export async function runProxyCommand(args: string[]): Promise<void> {
  const { values } = parseCommandLine(
    usage,
    {
      upstream: { type: "string", default: process.env.UPSTREAM_URL ?? "" },
      port: { type: "string", default: "4020" },
      report: { type: "string" },
      record: { type: "string" },
    },
    { args },
  );
  if (!values.upstream) throw new Error(usage);
  const recorder = values.record === undefined ? undefined : new SeedRecorder();
  const proxy = await startContractProxy({
    ...(recorder ? { recorder } : {}),
    upstream: values.upstream,
    port: Number(values.port),
    onViolation: (exchange) => console.log(formatExchange(exchange)),
  });
  console.log(JSON.stringify({ msg: "listening", url: proxy.url, upstream: values.upstream }));
  const shutdown = () => {
    void (async () => {
      const summary = proxy.report.summary();
      console.log(formatSummary(summary));
      if (values.report)
        await writeFile(values.report, JSON.stringify({ summary, violating: proxy.report.violating }, null, 2));
      if (recorder && values.record) await writeFile(values.record, `${JSON.stringify(recorder.state(), null, 2)}\n`);
      await proxy.close();
      // Exit 1 when an implementation answered outside the contract, so a CI step can gate on it.
      process.exit(summary.responsesBreakingContract > 0 ? 1 : 0);
    })();
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
