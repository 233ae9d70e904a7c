/**
 * The runtime of generated/validate.ts, the `deployment-client/validate` entry (D-332): answer checks for tests and
 * development builds. Each answer's body is checked against the contract; one that breaks it rejects the call with an
 * `AnswerError` naming the JSON pointer. Only this entry imports the validators, so a bundle without it carries none.
 * A real source file so that the compiler checks it; generator/ copies it.
 */

import type { Middleware } from "openapi-fetch";
import { answerValidators } from "../generated/answer-validators.js";
import { operations, type ServiceClient } from "../generated/client.js";

/** An answer whose status or body the contract does not allow: which operation, which status, where and what. */
export class AnswerError extends Error {
  constructor(
    readonly operationId: string,
    readonly status: number,
    /** The JSON pointer (RFC 6901) into the body of the value at fault; "" for the whole body. */
    readonly pointer: string,
    readonly reason: string,
    readonly response: Response,
  ) {
    super(
      `${operationId} answered ${status}, which breaks the contract at ${pointer === "" ? "the body" : pointer}: ${reason}`,
    );
    this.name = "AnswerError";
  }
}

/** operationId by `METHOD /path/template`, as openapi-fetch names the route (`schemaPath`). */
const operationByRoute = new Map(
  Object.entries(operations).map(([id, operation]) => [`${operation.method.toUpperCase()} ${operation.path}`, id]),
);

/** The pointer and reason of Ajv's first error; a missing or extra property is named in the pointer. */
function describe(error: NonNullable<(typeof answerValidators)[string]["errors"]>[number]): [string, string] {
  const property = error.params.missingProperty ?? error.params.additionalProperty;
  const escaped = typeof property === "string" ? `/${property.replaceAll("~", "~0").replaceAll("/", "~1")}` : "";
  return [`${error.instancePath}${escaped}`, `${error.message ?? error.keyword}`];
}

/** The openapi-fetch middleware of the answer checks. */
export const answerChecks: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const operationId = operationByRoute.get(`${request.method} ${schemaPath}`);
    if (operationId === undefined) return undefined;
    const validate = answerValidators[`${operationId}_${response.status}`];
    if (validate === undefined)
      throw new AnswerError(
        operationId,
        response.status,
        "",
        "the contract documents no answer with this status",
        response,
      );
    let body: unknown;
    try {
      body = await response.clone().json();
    } catch {
      throw new AnswerError(operationId, response.status, "", "the body is not JSON", response);
    }
    if (validate(body)) return undefined;
    const [pointer, reason] = describe(validate.errors?.[0] ?? { instancePath: "", keyword: "schema", params: {} });
    throw new AnswerError(operationId, response.status, pointer, reason, response);
  },
};

/** Checks every answer of `client` against the contract from now on (tests and development builds); returns the client. */
export function validateAnswers(client: ServiceClient): ServiceClient {
  client.use(answerChecks);
  return client;
}
