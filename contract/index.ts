/** The contract module (D-78): the one reader of generated/openapi.json that the server, the suite, the mocks and the tools share. */
export { document, documentPath, pointer, type OpenAPIObject, type ParameterObject, type SchemaObject } from "./document.js";
export {
  operations,
  operationList,
  operation,
  isOperationId,
  type ContractBody,
  type ContractOperation,
  type ContractParameter,
  type OperationId,
  type OperationsTable,
} from "./operations.js";
export { createContractAjv, type ContractAjv, type ContractAjvOptions, type ErrorObject, type ValidateFunction } from "./ajv.js";
export { matchPath, knownPaths, type PathMatch } from "./path-matcher.js";
export { answerProblems } from "./answers.js";
export { demo, demoFixture, demoFixturePath, type DemoFixture, type DemoIntegration, type DemoOrganization, type DemoRepository } from "./demo.js";
export { parsePrefer, preferredExample, requestExamples, responseExamples, type ContractExample } from "./examples.js";
export type { RequestBody, RequestParameters, SuccessBody } from "./operation-types.js";
