/** The contract module (D-78): the one reader of generated/openapi.json that the server, the suite, the mocks and the tools share. */

export {
  type ContractAjv,
  type ContractAjvOptions,
  createContractAjv,
  type ErrorObject,
  type ValidateFunction,
} from "./ajv.js";
export { answerProblems, type ContractLevel, isJsonMediaType } from "./answers.js";
export {
  type DemoFixture,
  type DemoIntegration,
  type DemoOrganization,
  type DemoRepository,
  demo,
  demoFixture,
  demoFixturePath,
} from "./demo.js";
export {
  document,
  documentPath,
  type OpenAPIObject,
  type ParameterObject,
  pointer,
  type SchemaObject,
} from "./document.js";
export { deploymentStatuses, deploymentTypes, enumeratedWords } from "./enums.js";
export { type ContractExample, parsePrefer, preferredExample, requestExamples, responseExamples } from "./examples.js";
export { interfaceDocument, interfaceDocumentPath } from "./interface-document.js";
export type { RequestBody, RequestParameters, SuccessBody } from "./operation-types.js";
export {
  type ContractBody,
  type ContractOperation,
  type ContractParameter,
  examplePath,
  isOperationId,
  type OperationId,
  type OperationsTable,
  operation,
  operationList,
  operations,
} from "./operations.js";
export { knownPaths, matchPath, type PathMatch } from "./path-matcher.js";
export { secretFields } from "./secret-fields.js";
export { isStorableText, unstorableTextDetail, unstorableTextPointers } from "./storable-text.js";
