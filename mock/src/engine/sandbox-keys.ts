/** Sandbox authentication (D-79): any non-empty `X-Api-Key` is accepted; a key the session does not know gets its own sandbox organization and tenant. */
import { createHash } from "node:crypto";
import {
  type ApiKeyRecord,
  authenticate,
  hashApiKey,
  type Store,
  withoutHttpWhitespace,
} from "../../../server/engine.js";

/** A uuid (version 4 layout) derived from a text, so a key maps to the same sandbox ids in every session. */
function derivedUuid(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The authenticator of a sandbox session: the demo keys act as themselves (D-77); any other non-empty key is
 * provisioned on first use (an organization, a tenant), then `onProvisioned` seeds its tenant. A missing key is
 * still 401. A session is its key's own (D-396), so it provisions that one key.
 */
export function sandboxAuthenticator(store: Store, onProvisioned: (key: ApiKeyRecord) => Promise<void>) {
  // A client's first requests often come together: they all wait on one provisioning, seeded, rather than race it.
  const provisioning = new Map<string, Promise<ApiKeyRecord>>();
  return async (apiKeyHeader: string | string[] | undefined): Promise<ApiKeyRecord> => {
    try {
      return await authenticate(store, apiKeyHeader);
    } catch (refused) {
      const raw = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
      const key = raw === undefined ? "" : withoutHttpWhitespace(raw);
      if (!key) throw refused;
      let provisioned = provisioning.get(key);
      if (!provisioned) {
        provisioned = provision(store, key, onProvisioned);
        provisioning.set(key, provisioned);
      }
      return provisioned;
    }
  };
}

/** Makes the sandbox organization, tenant and key record of `key`, then seeds them. */
async function provision(
  store: Store,
  key: string,
  onProvisioned: (key: ApiKeyRecord) => Promise<void>,
): Promise<ApiKeyRecord> {
  const organizationId = derivedUuid(`sandbox organization ${key}`);
  const tenantId = derivedUuid(`sandbox tenant ${key}`);
  const record: ApiKeyRecord = {
    id: derivedUuid(`sandbox key ${key}`),
    organizationId,
    keyHash: hashApiKey(key),
    label: "sandbox key",
    defaultTenantId: tenantId,
    tenantIds: [tenantId],
  };
  await store.createOrganization({ id: organizationId, name: "Sandbox" });
  await store.createTenant({ id: tenantId, organizationId, name: "sandbox" });
  await store.createApiKey(record);
  await onProvisioned(record);
  return record;
}
