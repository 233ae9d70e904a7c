/** Authentication and tenant selection (D-13 to D-15): X-Api-Key (401 when missing or unknown), X-Tenant-Id (403 when the key cannot reach it). */

import type { ApiKeyRecord } from "../domain/records.js";
import { HttpProblem } from "../errors/http-problem.js";
import type { Store } from "../storage/store.js";
import { hashApiKey } from "./api-keys.js";

/** Who is calling: the key's organization and the tenant the request acts on. */
export interface Principal {
  apiKeyId: string;
  organizationId: string;
  tenantId: string;
}

/**
 * The challenge of every 401 (RFC 9110 §11.6.1): the key goes in the X-Api-Key header. `ApiKey` is not a
 * registered scheme; the parameters tell a client which header to send (D-115).
 */
const apiKeyChallenge = 'ApiKey realm="deployment-service", header="X-Api-Key"';

/** A 401 with its challenge. */
export function unauthenticated(detail: string): HttpProblem {
  return new HttpProblem("unauthenticated", detail, undefined, { "WWW-Authenticate": apiKeyChallenge });
}

/** The header value without the spaces and tabs HTTP allows around it (RFC 9110 §5.5), and nothing else (D-115). */
export function withoutHttpWhitespace(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

/** The key's record, or 401. */
export async function authenticate(
  store: Pick<Store, "findApiKeyByHash">,
  apiKeyHeader: string | string[] | undefined,
): Promise<ApiKeyRecord> {
  const raw = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
  const key = raw === undefined ? "" : withoutHttpWhitespace(raw);
  if (key === "") throw unauthenticated("Send a valid API key in the X-Api-Key header.");
  const record = await store.findApiKeyByHash(hashApiKey(key));
  if (!record) throw unauthenticated("The API key in the X-Api-Key header is not valid.");
  return record;
}

/** The tenant to act on: X-Tenant-Id when given (it must be one the key reaches, else 403), else the key's default. */
export function selectTenant(
  key: { id: string; organizationId: string; defaultTenantId: string; tenantIds: string[] },
  requestedTenantId: string | undefined,
): Principal {
  if (requestedTenantId === undefined) {
    return { apiKeyId: key.id, organizationId: key.organizationId, tenantId: key.defaultTenantId };
  }
  const tenantId = requestedTenantId.toLowerCase();
  if (!key.tenantIds.includes(tenantId)) {
    throw new HttpProblem("forbidden", `The API key cannot act on tenant ${tenantId}.`);
  }
  return { apiKeyId: key.id, organizationId: key.organizationId, tenantId };
}
