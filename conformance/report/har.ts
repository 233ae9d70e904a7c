/** HAR 1.2 of a run: every exchange, redacted as every report is (the suite records exchanges redacted, D-54/D-55), with the check that sent it. */
import type { Exchange } from "../target/http-exchange.js";

/** An exchange and the check that sent it. */
export interface CheckExchange {
  check: string;
  exchange: Exchange;
}

interface HarHeader {
  name: string;
  value: string;
}

function headerList(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function contentType(headers: Record<string, string>): string {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
}

function harEntry({ check, exchange }: CheckExchange, fallbackStart: string) {
  const { request, response } = exchange;
  const url = new URL(request.url);
  return {
    startedDateTime: exchange.startedAt ?? fallbackStart,
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body !== undefined
        ? { postData: { mimeType: contentType(request.headers), text: request.body, params: [] } }
        : {}),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      ...(request.bodyTruncated ? { comment: "body truncated to 4096 characters" } : {}),
    },
    response: {
      status: response.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headerList(response.headers),
      content: {
        size: Buffer.byteLength(response.body),
        mimeType: contentType(response.headers),
        text: response.body,
        ...(response.bodyTruncated ? { comment: "body truncated to 4096 characters" } : {}),
      },
      redirectURL: response.headers.location ?? "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    // the suite measures the whole exchange only; HAR requires send, wait and receive
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    comment: `check ${check}${exchange.operation ? ` · ${exchange.operation}` : ""}`,
    _check: check,
    ...(exchange.operation ? { _operation: exchange.operation } : {}),
    // Which configured key the redacted X-Api-Key was, so a replay can send the right one.
    ...(request.keyRef ? { _keyRef: request.keyRef } : {}),
  };
}

/** The HAR document of a run, entries in the order they were sent. */
export function toHar(exchanges: readonly CheckExchange[], run: { runId: string; startedAt: string }) {
  const entries = [...exchanges]
    .sort((a, b) => (a.exchange.startedAt ?? "").localeCompare(b.exchange.startedAt ?? ""))
    .map((e) => harEntry(e, run.startedAt));
  return {
    log: {
      version: "1.2",
      creator: { name: "deployment-conformance", version: "0.1.0" },
      pages: [],
      entries,
      comment: `conformance run ${run.runId}`,
    },
  };
}
