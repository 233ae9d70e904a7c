/** The request body limit of the mock's Node fronts (the static mock's problem front, the contract proxy): the sandbox's 1 MiB, refused with a 413 problem (D-472). */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBoundedBody } from "../../common/http-forward.js";
import { bodyLimitBytes, HttpProblem } from "../../server/engine.js";

/** The request's body, or undefined once a 413 is answered because it is larger than `limitBytes`. */
export async function bodyWithinLimit(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  limitBytes = bodyLimitBytes,
): Promise<Buffer | undefined> {
  const body = await readBoundedBody(incoming, limitBytes);
  if (body !== undefined) return body;
  const problem = new HttpProblem(
    "payloadTooLarge",
    `The body is larger than ${limitBytes} bytes; send a smaller one.`,
  );
  // The rest of the body is not read: the connection ends with this answer.
  outgoing.writeHead(problem.status, { "content-type": "application/problem+json", connection: "close" });
  outgoing.end(JSON.stringify(problem.toProblem()));
  return undefined;
}
