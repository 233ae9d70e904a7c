/** The schema types the server speaks in, from generated/types.ts: the contract's names for `components["schemas"]`. */
import type { components } from "../generated/types.js";

type Schemas = components["schemas"];

export type CodehostRepository = Schemas["CodehostRepository"];
export type Deployment = Schemas["Deployment"];
export type DeploymentCreate = Schemas["DeploymentCreate"];
export type DeploymentList = Schemas["DeploymentList"];
export type DeploymentSource = Schemas["DeploymentSource"];
export type OAuthProvider = Schemas["OAuthProvider"];
export type OAuthProviderCreate = Schemas["OAuthProviderCreate"];
export type Problem = Schemas["Problem"];
export type ProblemFieldError = Schemas["ProblemFieldError"];
export type ProblemType = Schemas["ProblemType"];
export type ResourceSpec = Schemas["ResourceSpec"];
export type Secret = Schemas["Secret"];
export type SourceConfig = Schemas["SourceConfig"];
export type SourceRevisionConfig = Schemas["SourceRevisionConfig"];
export type SourceRevisionConfigCreate = Schemas["SourceRevisionConfigCreate"];
