/** The MSW handlers alone (`deployment-mock/msw`): no Prism, no SQLite, nothing but msw and the contract. */

export type { MockState, StateDeployment } from "./engine/mock-state.js";
export { type ContractHandlerOptions, contractHandlers } from "./msw-handlers.js";
