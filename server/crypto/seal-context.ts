/** What a sealed value is bound to (D-118): the associated data of its AES-GCM seal names its organization, tenant, row and field. */
import type { SealOwner } from "../storage/store.js";

/** The context of an OAuth provider's client_secret. */
export function providerSecretContext(organizationId: string, providerId: string): string {
  return `oauth_provider/${organizationId}/${providerId}/client_secret`;
}

/** The context of a deployment secret's value (secret names are unique in a deployment, D-116). */
export function deploymentSecretContext(
  organizationId: string,
  tenantId: string,
  deploymentId: string,
  secretName: string,
): string {
  return `deployment/${organizationId}/${tenantId}/${deploymentId}/secrets/${secretName}`;
}

/** The context of a stored value from what it belongs to. */
export function sealContext(owner: SealOwner): string {
  return owner.kind === "provider"
    ? providerSecretContext(owner.organizationId, owner.providerId)
    : deploymentSecretContext(owner.organizationId, owner.tenantId, owner.deploymentId, owner.name);
}
