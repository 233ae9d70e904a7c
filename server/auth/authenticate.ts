/** Authentication and tenant selection (D-13 to D-15): X-Api-Key (401 when missing or unknown), X-Tenant-Id (403 when the key cannot reach it). */
import { HttpProblem } from "../errors/http-problem.js";
import type { ApiKeyRecord } from "../storage/records.js";
import type { Store } from "../storage/store.js";
import { hashApiKey } from "./api-keys.js";

/** Who is calling: the key's organization and the tenant the request acts on. */
export interface Principal {
  apiKeyId: string;
  organizationId: string;
  tenantId: string;
}

/** The key's record, or 401. */
export async function authenticate(
  store: Pick<Store, "findApiKeyByHash">,
  apiKeyHeader: string | string[] | undefined,
): Promise<ApiKeyRecord> {
  const key = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
  if (key === undefined || key.trim() === "") {
    throw new HttpProblem("unauthenticated", "Send a valid API key in the X-Api-Key header.");
  }
  const record = await store.findApiKeyByHash(hashApiKey(key.trim()));
  if (!record) throw new HttpProblem("unauthenticated", "The API key in the X-Api-Key header is not valid.");
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
