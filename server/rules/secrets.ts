/** Secrets (D-54, D-55): values sealed with AES-256-GCM before storage and returned masked; names as given. */
import type { Secret } from "../../generated/client.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { SealedSecret } from "../storage/records.js";

/** What a response shows instead of a secret value. */
const maskedValue = "********";

export function sealSecrets(box: SecretBox, secrets: Secret[]): SealedSecret[] {
  return secrets.map((secret) => ({ name: secret.name, sealedValue: box.encrypt(secret.value) }));
}

export function maskSecrets(secrets: SealedSecret[]): Secret[] {
  return secrets.map((secret) => ({ name: secret.name, value: maskedValue }));
}
