/** Requests spelled byte for byte, each on a connection of its own, written together and answered as they come. */
import type { CheckContext } from "../runner/check.js";
import { type WireAnswer, WireConnection } from "../target/wire.js";
import { headerLines, jsonWireHeaders } from "./wire-headers.js";

/** A request's text given its connection's Host and base path. */
export type WireText = (connection: WireConnection) => string;

/**
 * Opens a connection per request, then writes every request in one turn, so that they reach the target together, and
 * reads each answer; undefined where the target closed the connection unanswered.
 */
export async function answersOnWire(
  ctx: CheckContext,
  texts: readonly WireText[],
): Promise<(WireAnswer | undefined)[]> {
  // a program that hands the suite its fetch (an in-process target, D-360) has no connection to write bytes on
  if (ctx.config.fetch) ctx.skip("needs a connection of its own to the target; this run was given a fetch function");
  const connections: WireConnection[] = [];
  try {
    for (const _ of texts) connections.push(await WireConnection.open(ctx.config.baseUrl, ctx.config.timeoutMs));
    const written = connections.map((connection, i) => {
      const text = texts[i]!(connection);
      connection.writeText(text);
      return text;
    });
    return await Promise.all(
      connections.map((connection, i) => connection.read(written[i]!.split(" ", 1)[0]!).catch(() => undefined)),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
}

/** One request on a connection of its own and its answer; undefined when the target closed the connection unanswered. */
export async function answerOnWire(ctx: CheckContext, text: WireText): Promise<WireAnswer | undefined> {
  return (await answersOnWire(ctx, [text]))[0];
}

/** A GET of `target` (a path of the contract and its query) asking for JSON with the run's key, on a connection closed after its answer. */
export function closingGet(ctx: CheckContext, target: string): WireText {
  const head = headerLines(jsonWireHeaders(ctx));
  return (c) => `GET ${c.basePath}${target} HTTP/1.1\r\nHost: ${c.host}\r\n${head}Connection: close\r\n\r\n`;
}

/** How many answers had each status, e.g. `22 × 200, 18 × 429`; `none` counts the connections closed unanswered. */
export function statusTally(answers: readonly (WireAnswer | undefined)[]): string {
  const statuses = new Map<string, number>();
  for (const answer of answers) {
    const status = answer ? String(answer.status) : "none";
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return [...statuses].map(([status, n]) => `${n} × ${status}`).join(", ");
}
