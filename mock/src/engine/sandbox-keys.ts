/** Sandbox authentication (D-79): any non-empty `X-Api-Key` is accepted; a key the session does not know gets its own sandbox organization and tenant. */
import { createHash } from "node:crypto";
import {
  type ApiKeyRecord,
  authenticate,
  hashApiKey,
  type Store,
  UniqueViolation,
  unauthenticated,
  withoutHttpWhitespace,
} from "../../../server/engine.js";

/** A uuid (version 4 layout) derived from a text, so a key maps to the same sandbox ids in every session. */
function derivedUuid(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The most keys of its own a session provisions (D-114): each holds an organization, a tenant and the seeded examples. */
const maxKeysPerSession = 20;

/**
 * The authenticator of a sandbox session: the demo keys act as themselves (D-77); any other non-empty
 * key is provisioned on first use, then `onProvisioned` seeds its tenant, up to `maxKeysPerSession` keys
 * (D-114: a further new key is 401). A missing key is still 401.
 */
export function sandboxAuthenticator(store: Store, onProvisioned: (key: ApiKeyRecord) => Promise<void>) {
  let provisioned = 0;
  return async (apiKeyHeader: string | string[] | undefined): Promise<ApiKeyRecord> => {
    try {
      return await authenticate(store, apiKeyHeader);
    } catch (refused) {
      const raw = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
      const key = raw === undefined ? "" : withoutHttpWhitespace(raw);
      if (!key) throw refused;
      if (provisioned >= maxKeysPerSession)
        throw unauthenticated(
          `This sandbox session already has ${maxKeysPerSession} keys of its own, the most it takes; use one of them or another X-Mock-Session.`,
        );
      provisioned += 1;
      const organizationId = derivedUuid(`sandbox organization ${key}`);
      const record: ApiKeyRecord = {
        id: derivedUuid(`sandbox key ${key}`),
        organizationId,
        keyHash: hashApiKey(key),
        label: "sandbox key",
        defaultTenantId: derivedUuid(`sandbox tenant ${key}`),
        tenantIds: [derivedUuid(`sandbox tenant ${key}`)],
      };
      try {
        await store.createOrganization({ id: organizationId, name: "Sandbox" });
        await store.createTenant({ id: record.defaultTenantId, organizationId, name: "sandbox" });
        await store.createApiKey(record);
      } catch (error) {
        // Two first requests with the same new key: the other one provisioned it.
        if (error instanceof UniqueViolation) {
          provisioned -= 1;
          return authenticate(store, key);
        }
        throw error;
      }
      await onProvisioned(record);
      return record;
    }
  };
}
