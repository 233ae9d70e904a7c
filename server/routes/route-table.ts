/** The types of the route table: one typed handler per operation of the contract (D-78); the pipeline (server/pipeline/) runs them. */
import type { OperationId, RequestBody, RequestParameters, SuccessBody } from "../../contract/index.js";
import type { Principal } from "../auth/authenticate.js";
import type { JsonStream } from "../presenters/json-stream.js";
import type { JsonText } from "../presenters/json-text.js";
import type { Services } from "../services/index.js";

/** What a handler receives: who calls, and the validated, typed request. */
interface OperationRequest<Id extends OperationId> {
  principal: Principal;
  params: RequestParameters<Id>;
  body: RequestBody<Id>;
}

/** A handler answers with its success body (or its JSON text, D-83, or that text in parts, D-350); the status comes from the operations table, errors are thrown HttpProblems. */
export type Handler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  services: Services,
) => Promise<SuccessBody<Id> | JsonText<SuccessBody<Id>> | JsonStream<SuccessBody<Id>>>;

/** One handler for every operation of the contract: the compiler fails when one is missing. */
export type RouteTable = { [Id in OperationId]: Handler<Id> };
