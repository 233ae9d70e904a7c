/** Secrets (D-54, D-55): values sealed with AES-256-GCM before storage (masked by the record's maskSecrets); names as given. */
import type { Secret } from "../../contract/schemas.js";
import { deploymentSecretContext } from "../crypto/seal-context.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { SealedSecret } from "../domain/records.js";

/** The secrets with their values sealed, each bound to its organization, tenant, deployment and name (D-118). */
export function sealSecrets(
  box: SecretBox,
  secrets: Secret[],
  owner: { organizationId: string; tenantId: string; deploymentId: string },
): SealedSecret[] {
  return secrets.map((secret) => ({
    name: secret.name,
    sealedValue: box.encrypt(
      secret.value,
      deploymentSecretContext(owner.organizationId, owner.tenantId, owner.deploymentId, secret.name),
    ),
  }));
}
