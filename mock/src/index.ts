/** The mocks of the contract as a library: `startMock` (Prism or the sandbox), `startContractProxy` and the MSW `contractHandlers`. */
export { type MockState, mockStateFormat, parseMockState, type StateDeployment } from "./engine/mock-state.js";
export type { FaultOptions } from "./faults.js";
export { type MockOptions, type RunningMock, startMock } from "./mock.js";
export { type ContractProxy, type ContractProxyOptions, startContractProxy } from "./mock-proxy.js";
export { type ContractHandlerOptions, contractHandlers } from "./msw-handlers.js";
export type { ViolatingExchange } from "./violation-report.js";
