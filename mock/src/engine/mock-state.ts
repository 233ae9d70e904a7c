/**
 * The one format of a sandbox session's state (D-320): what `--seed`, `seed:`, `PUT /__mock/state` and
 * `restore()` read and what `GET /__mock/state`, `snapshot()`, `--state-file` and `proxy --record` write.
 * Deployments and providers are the contract's own representations (a list page's items as they are), so a
 * recorded answer is a seed as it stands; secret values are never part of it.
 */
import type { CodehostRepository, Deployment, OAuthProvider } from "../../../contract/schemas.js";
import {
  type DeploymentRecord,
  maskSecrets,
  type OAuthProviderRecord,
  presentDeployment,
  presentOAuthProvider,
  withLeftOutFields,
} from "../../../server/engine.js";

/** The format tag of a state, so a reader can tell it from another JSON file. */
export const mockStateFormat = "deployment-mock-state/1";

/** A deployment of a state: the contract's Deployment, its secrets by name only (values are never stored). */
export type StateDeployment = Omit<Deployment, "secrets"> & { secrets?: { name: string }[] };

/** A session's state: its owner key's deployments (newest first, as the list answers) and its organization's providers. */
export interface MockState {
  format: typeof mockStateFormat;
  /** Deployments of the owner key's default tenant, in any status, newest first; their `tenant_id` is replaced by that tenant's. */
  deployments: StateDeployment[];
  /** OAuth providers of the owner key's organization, oldest first; `organization_id` is replaced, no client secret. */
  oauth_providers: OAuthProvider[];
  /** Repositories an upstream listed, by integration id (`proxy --record` writes them for reference; the sandbox answers its own fixture's). */
  repositories?: Record<string, CodehostRepository[]>;
  /** Milliseconds the session's clock ran ahead of the wall clock (D-321); a restore sets the clock to it. */
  clock_advanced_ms?: number;
}

/** Where a state's records go: the owner key's tenant and organization. */
interface StateOwner {
  tenantId: string;
  organizationId: string;
}

/** The statuses a deployment may be seeded in. */
const statuses = new Set<string>(["AWAITING_DATABASE", "READY", "UNUSED", "AWAITING_DELETE", "UNKNOWN"]);

/** A state whose shape is not the format's: the message names the JSON pointer that is wrong. */
export class MockStateError extends Error {
  override name = "MockStateError";
}

/** The state in `value`, checked against the format, or a MockStateError naming the first wrong pointer. */
export function parseMockState(value: unknown): MockState {
  const state = objectAt(value, "");
  if (state.format !== mockStateFormat) throw new MockStateError(`/format must be "${mockStateFormat}"`);
  const deployments = arrayAt(state.deployments ?? [], "/deployments");
  const ids = new Set<string>();
  const names = new Set<string>();
  deployments.forEach((item, index) => {
    const at = `/deployments/${index}`;
    const deployment = objectAt(item, at);
    for (const field of ["id", "name", "source", "created_at", "updated_at"])
      stringAt(deployment[field], `${at}/${field}`);
    if (!statuses.has(String(deployment.status)))
      throw new MockStateError(`${at}/status must be one of ${[...statuses].join(", ")}`);
    objectAt(deployment.source_config, `${at}/source_config`);
    objectAt(deployment.source_revision_config, `${at}/source_revision_config`);
    timeAt(deployment.created_at as string, `${at}/created_at`);
    if (ids.has(deployment.id as string)) throw new MockStateError(`${at}/id repeats an earlier deployment's id`);
    ids.add(deployment.id as string);
    // Names are unique in any letter case within a tenant (D-119).
    const name = (deployment.name as string).toLowerCase();
    if (names.has(name)) throw new MockStateError(`${at}/name repeats an earlier deployment's name`);
    names.add(name);
  });
  const providers = arrayAt(state.oauth_providers ?? [], "/oauth_providers");
  const providerIds = new Set<string>();
  const recordIds = new Set<string>();
  providers.forEach((item, index) => {
    const provider = objectAt(item, `/oauth_providers/${index}`);
    for (const field of ["id", "provider_id", "name", "client_id", "auth_url", "token_url", "created_at"])
      stringAt(provider[field], `/oauth_providers/${index}/${field}`);
    // A provider_id is unique in its organization (D-38), so a state repeating one is refused, not collapsed into one.
    if (providerIds.has(provider.provider_id as string))
      throw new MockStateError(`/oauth_providers/${index}/provider_id repeats an earlier provider's provider_id`);
    providerIds.add(provider.provider_id as string);
    // an id names one record in every answer (D-430): two providers of one id would list as one record twice
    if (recordIds.has(provider.id as string))
      throw new MockStateError(`/oauth_providers/${index}/id repeats an earlier provider's id`);
    recordIds.add(provider.id as string);
  });
  const advanced = state.clock_advanced_ms;
  if (advanced !== undefined && !(Number.isInteger(advanced) && (advanced as number) >= 0))
    throw new MockStateError("/clock_advanced_ms must be a whole number of milliseconds, 0 or more");
  return {
    format: mockStateFormat,
    deployments: deployments as StateDeployment[],
    oauth_providers: providers as OAuthProvider[],
    ...(state.repositories === undefined
      ? {}
      : { repositories: objectAt(state.repositories, "/repositories") as MockState["repositories"] }),
    ...(advanced === undefined ? {} : { clock_advanced_ms: advanced as number }),
  };
}

/** The state of a tenant's stored deployments (oldest first, as of nowUs) and an organization's providers. */
export function stateOf(deployments: DeploymentRecord[], providers: OAuthProviderRecord[]): MockState {
  return {
    format: mockStateFormat,
    deployments: deployments
      .map((record) => {
        const { secrets, ...rest } = presentDeployment(record);
        return { ...rest, secrets: secrets.map(({ name }) => ({ name })) };
      })
      .reverse(),
    oauth_providers: providers.map(presentOAuthProvider),
  };
}

/**
 * The stored records of a state's deployments, oldest first, in `owner`'s tenant: a deployment still
 * AWAITING_DATABASE turns READY `readyAfterUs` after nowUs; a secret has no value (the answers mask it anyway).
 */
export function deploymentRecordsOf(
  state: MockState,
  owner: StateOwner,
  nowUs: number,
  readyAfterUs: number,
): Omit<DeploymentRecord, "seq">[] {
  // Stored oldest first: by created_at, the id breaking ties, so the list answers newest first as D-08 orders it.
  const oldestFirst = [...state.deployments].sort(
    (a, b) => microsOf(a.created_at) - microsOf(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return oldestFirst.map((d) => {
    const { created_at, updated_at, secrets, ...fields } = d;
    const createdUs = microsOf(created_at);
    // The state's deployment is the contract's record (D-401): kept as it is, every field the contract has.
    return {
      // An optional field the state leaves out is answered as every other one is (D-482).
      deployment: withLeftOutFields("Deployment", {
        ...fields,
        tenant_id: owner.tenantId,
        secrets: maskSecrets(secrets ?? []),
        latest_revision_id: d.latest_revision_id ?? null,
        active_revision_id: d.active_revision_id ?? null,
      }),
      secrets: (secrets ?? []).map(({ name }) => ({ name, sealedValue: "" })),
      createdUs,
      updatedUs: microsOf(updated_at),
      readyUs: d.status === "AWAITING_DATABASE" ? nowUs + readyAfterUs : createdUs,
    };
  });
}

/** The stored records of a state's providers in `owner`'s organization, without a client secret. */
export function providerRecordsOf(state: MockState, owner: StateOwner): OAuthProviderRecord[] {
  // The state's provider is the contract's record (D-401): kept as it is, with the contract's defaults.
  return state.oauth_providers.map(({ created_at, updated_at, ...p }) => ({
    provider: withLeftOutFields("OAuthProvider", {
      ...p,
      organization_id: owner.organizationId,
      code_challenge_method: p.code_challenge_method ?? null,
    }),
    sealedClientSecret: null,
    createdUs: microsOf(created_at),
    updatedUs: microsOf(updated_at ?? created_at),
  }));
}

/** Microseconds since the epoch of an RFC 3339 date-time, its fraction to the microsecond (the inverse of isoFromMicros). */
export function microsOf(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? "";
  const micros = Number(fraction.padEnd(6, "0").slice(3, 6));
  return Date.parse(iso) * 1000 + micros;
}

function objectAt(value: unknown, pointer: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new MockStateError(`${pointer || "the state"} must be an object`);
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, pointer: string): unknown[] {
  if (!Array.isArray(value)) throw new MockStateError(`${pointer} must be an array`);
  return value;
}

function stringAt(value: unknown, pointer: string): void {
  if (typeof value !== "string") throw new MockStateError(`${pointer} must be a string`);
}

function timeAt(value: string, pointer: string): void {
  if (Number.isNaN(Date.parse(value))) throw new MockStateError(`${pointer} must be an RFC 3339 date-time`);
}
