/** The OAuth provider response record (interface spec: OAuth provider response record); the client secret is never part of it. */
import type { OAuthProvider } from "../../contract/schemas.js";
import type { OAuthProviderRecord } from "../domain/records.js";
import { isoFromMicros } from "./timestamps.js";

export function presentOAuthProvider(record: OAuthProviderRecord): OAuthProvider {
  return {
    id: record.id,
    organization_id: record.organizationId,
    provider_id: record.providerId,
    name: record.name,
    client_id: record.clientId,
    auth_url: record.authUrl,
    token_url: record.tokenUrl,
    uses_pkce: record.usesPkce,
    code_challenge_method: record.codeChallengeMethod,
    created_at: isoFromMicros(record.createdUs),
    updated_at: isoFromMicros(record.updatedUs),
    provider_type: record.providerType,
    mcp_server_url: record.mcpServerUrl,
    token_endpoint_auth_method: record.tokenEndpointAuthMethod,
    is_dynamic_client: record.isDynamicClient,
  };
}
