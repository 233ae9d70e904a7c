/** OAuth providers of an organization (D-15, D-38, D-54, D-58): create with sealed client secret and checked URLs, list oldest first. */
import type { OAuthProvider, OAuthProviderCreate } from "../../contract/schemas.js";
import type { Principal } from "../auth/authenticate.js";
import { providerSecretContext } from "../crypto/seal-context.js";
import type { Dependencies } from "../dependencies.js";
import { LimitReached, UniqueViolation } from "../domain/store-errors.js";
import { HttpProblem } from "../errors/http-problem.js";
import { newId } from "../ids.js";
import { presentOAuthProvider } from "../presenters/oauth-provider.js";
import { recordFieldsOf, withLeftOutFields } from "../presenters/record-fields.js";
import { checkOAuthUrls } from "../rules/oauth-urls.js";

/**
 * The most OAuth providers an organization may have (D-112): the list answers them all at once, so this
 * bounds its size (each provider is at most about 5 KB of JSON: about 2.5 MB) and the memory of each request.
 */
const maxOAuthProvidersPerOrganization = 500;

export class OAuthProviderService {
  constructor(private readonly deps: Dependencies) {}

  /** Stores a new provider of the caller's organization; 422 for an unacceptable URL, 409 for a taken provider_id. */
  async create(principal: Principal, body: OAuthProviderCreate): Promise<OAuthProvider> {
    const urlErrors = checkOAuthUrls(body);
    if (urlErrors.length > 0) {
      throw new HttpProblem(
        "validation",
        `The request body breaks the schema in ${urlErrors.length === 1 ? "1 place" : `${urlErrors.length} places`}; see errors.`,
        urlErrors,
      );
    }
    const nowUs = this.deps.nowUs();
    const id = newId();
    // The record is the contract's: the body's fields that the record has (the validator applied the contract's
    // defaults), what the service decides over them (D-401).
    const record = {
      // An optional field the body leaves out is answered as every other one is (D-482).
      provider: withLeftOutFields("OAuthProvider", {
        ...recordFieldsOf("OAuthProvider", body),
        id,
        organization_id: principal.organizationId,
        uses_pkce: body.uses_pkce as boolean,
        code_challenge_method: body.code_challenge_method as string,
        // D-59: response-only fields, set by dynamic client registration, never by this operation.
        mcp_server_url: null,
        is_dynamic_client: false,
      }),
      sealedClientSecret:
        body.client_secret == null
          ? null
          : this.deps.secretBox.encrypt(body.client_secret, providerSecretContext(principal.organizationId, id)),
      createdUs: nowUs,
      updatedUs: nowUs,
    };
    try {
      await this.deps.store.insertOAuthProvider(record, maxOAuthProvidersPerOrganization);
    } catch (error) {
      if (error instanceof LimitReached) {
        throw new HttpProblem(
          "conflict",
          `This organization already has ${error.limit} OAuth providers, the most it may have; no provider was created.`,
        );
      }
      if (error instanceof UniqueViolation) {
        throw new HttpProblem(
          "conflict",
          `An OAuth provider with provider_id '${body.provider_id}' already exists in this organization.`,
        );
      }
      throw error;
    }
    return presentOAuthProvider(record);
  }

  /** The providers of the caller's organization, oldest first (D-08). */
  async list(principal: Principal): Promise<OAuthProvider[]> {
    const providers = await this.deps.store.listOAuthProviders(principal.organizationId);
    return providers.map(presentOAuthProvider);
  }
}
