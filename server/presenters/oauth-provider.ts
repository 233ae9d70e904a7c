/** The OAuth provider response record (interface spec: OAuth provider response record): the contract's record the store keeps, with its times (D-401); the client secret is never part of it. */
import type { OAuthProvider } from "../../contract/schemas.js";
import type { OAuthProviderRecord } from "../domain/records.js";
import { isoFromMicros } from "./timestamps.js";

export function presentOAuthProvider(record: OAuthProviderRecord): OAuthProvider {
  return {
    ...record.provider,
    created_at: isoFromMicros(record.createdUs),
    updated_at: isoFromMicros(record.updatedUs),
  };
}
