/** The Store contract (Storage): the same tests run against the SQLite adapter (on a file and in memory), the in-memory adapter and, with TEST_DATABASE_URL, the PostgreSQL adapter in a fresh schema. */

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceSpec } from "../../contract/schemas.js";
import { deploymentSecretContext, providerSecretContext, sealContext } from "../crypto/seal-context.js";
import { SecretBox } from "../crypto/secret-box.js";
import type { DeploymentQuery, NewDeployment, OAuthProviderRecord } from "../domain/records.js";
import { LimitReached, UniqueViolation } from "../domain/store-errors.js";
import { presentDeployment } from "../presenters/deployment.js";
import { deploymentRenderer } from "../presenters/deployment-text.js";
import { newDeployment as aNewDeployment } from "../testing/new-deployment.js";
import { joinedPageTexts } from "../testing/page-texts.js";
import { freshSchemaName } from "../testing/schema-name.js";
import { inspectStore, type StoreInspector } from "../testing/store-inspector.js";
import { dropSchema, testDatabaseUrl } from "../testing/test-server.js";
import { MemoryStore } from "./memory-store.js";
import { PostgresStore } from "./postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { SealOwner, Store } from "./store.js";

const adapters: Array<{
  name: string;
  skip: boolean;
  open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
}> = [
  {
    name: "SQLite",
    skip: false,
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-contract-"));
      const store = new SqliteStore({ renderer: deploymentRenderer, path: path.join(dir, "s.sqlite") });
      return { store, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    // ":memory:", as the stateful sandbox mock opens it.
    name: "SQLite in memory",
    skip: false,
    open: async () => ({
      store: new SqliteStore({ renderer: deploymentRenderer, path: ":memory:" }),
      cleanup: async () => {},
    }),
  },
  {
    // Plain TypeScript, as the stateful MSW handlers use it (D-170).
    name: "in memory",
    skip: false,
    open: async () => ({ store: new MemoryStore({ renderer: deploymentRenderer }), cleanup: async () => {} }),
  },
  {
    name: "PostgreSQL",
    skip: !testDatabaseUrl,
    open: async () => {
      const schema = freshSchemaName();
      const store = new PostgresStore({
        renderer: deploymentRenderer,
        connectionString: testDatabaseUrl as string,
        schema,
        poolSize: 8,
      });
      return { store, cleanup: () => dropSchema(schema) };
    },
  },
];

const organizationId = randomUUID();
const tenantA = randomUUID();
const tenantB = randomUUID();

/** A provider record of the test organization; `extra` overrides the record's members. */
function oauthProvider(
  providerId: string,
  createdUs: number,
  extra: Partial<OAuthProviderRecord> = {},
): OAuthProviderRecord {
  return {
    provider: {
      id: randomUUID(),
      organization_id: organizationId,
      provider_id: providerId,
      name: providerId,
      client_id: "c",
      auth_url: "https://a",
      token_url: "https://t",
      uses_pkce: false,
      code_challenge_method: "S256",
      provider_type: null,
      mcp_server_url: null,
      token_endpoint_auth_method: "client_secret_post",
      is_dynamic_client: false,
    },
    sealedClientSecret: null,
    createdUs,
    updatedUs: createdUs,
    ...extra,
  };
}

/** The store contract's deployments carry a secret and config values, so that they travel through every column. */
function newDeployment(
  tenantId: string,
  name: string,
  extra: Parameters<typeof aNewDeployment>[2] = {},
): NewDeployment {
  return aNewDeployment(tenantId, name, {
    secrets: [{ name: "S", sealedValue: "v1.sealed" }],
    ...extra,
    deployment: {
      source_config: { install_command: null },
      source_revision_config: { repo_ref: null },
      ...extra.deployment,
    },
  });
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`Store contract: ${adapter.name}`, () => {
    let store: Store;
    let inspector: StoreInspector;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await adapter.open());
      inspector = inspectStore(store);
      await store.migrate();
      await store.migrate(); // idempotent
      await store.createOrganization({ id: organizationId, name: "Org" });
      await store.createTenant({ id: tenantA, organizationId, name: "a" });
      await store.createTenant({ id: tenantB, organizationId, name: "b" });
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it("stores organizations, tenants and hashed keys with the tenants they reach", async () => {
      expect(await store.isEmpty()).toBe(false);
      expect(await store.getTenant(tenantA)).toEqual({ id: tenantA, organizationId, name: "a" });
      expect(await store.getTenant(randomUUID())).toBeUndefined();
      await store.createApiKey({
        id: randomUUID(),
        organizationId,
        keyHash: "hash-1",
        label: "k",
        defaultTenantId: tenantA,
        tenantIds: [tenantB],
      });
      const key = await store.findApiKeyByHash("hash-1");
      expect(key?.defaultTenantId).toBe(tenantA);
      expect(key?.tenantIds.sort()).toEqual([tenantA, tenantB].sort());
      expect(await store.findApiKeyByHash("hash-2")).toBeUndefined();
      await expect(store.createOrganization({ id: organizationId, name: "again" })).rejects.toBeInstanceOf(
        UniqueViolation,
      );
    });

    it("keeps the first value of a meta key", async () => {
      expect(await store.metaGetOrSet("k", "first")).toBe("first");
      expect(await store.metaGetOrSet("k", "second")).toBe("first");
    });

    it("lists providers oldest first (id breaking ties) and rejects a provider_id twice in an organization", async () => {
      const provider = (providerId: string, createdUs: number) => oauthProvider(providerId, createdUs);
      const later = provider("later", 2_000);
      const sameTime = provider("same-time", 2_000);
      await store.insertOAuthProvider(later, 10);
      await store.insertOAuthProvider(provider("earlier", 1_000), 10);
      await store.insertOAuthProvider(sameTime, 10);
      await expect(store.insertOAuthProvider(provider("later", 3_000), 10)).rejects.toBeInstanceOf(UniqueViolation);
      const tied = [later, sameTime]
        .sort((a, b) => (a.provider.id < b.provider.id ? -1 : 1))
        .map((p) => p.provider.provider_id);
      expect((await store.listOAuthProviders(organizationId)).map((p) => p.provider.provider_id)).toEqual([
        "earlier",
        ...tied,
      ]);
      // D-112: at the organization's limit, the next provider is refused and nothing is stored, even when
      // several arrive at once (the count and the insert are one step).
      const racing = await Promise.allSettled(
        ["r1", "r2", "r3"].map((id) => store.insertOAuthProvider(provider(id, 4_000), 4)),
      );
      expect(racing.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      for (const outcome of racing.filter((o) => o.status === "rejected"))
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(LimitReached);
      expect(await store.listOAuthProviders(organizationId)).toHaveLength(4);
    });

    it("re-seals the values sealed before D-118, bound to their organization, tenant and row, once", async () => {
      const box = new SecretBox(Buffer.alloc(32, 7));
      const tenantC = randomUUID();
      await store.createTenant({ id: tenantC, organizationId, name: "c" });
      const sealed = oauthProvider("legacy-sealed", 9_000, { sealedClientSecret: box.encrypt("client-secret") });
      const providerRowId = sealed.provider.id;
      await store.insertOAuthProvider(sealed, 1000);
      const legacy = await store.createDeployment(
        newDeployment(tenantC, "legacy-sealed", { secrets: [{ name: "TOKEN", sealedValue: box.encrypt("value") }] }),
        Date.now() * 1000,
      );
      const reseal = (sealed: string, owner: SealOwner) => box.encrypt(box.decrypt(sealed), sealContext(owner));
      expect(await store.resealUnbound(reseal)).toBeGreaterThanOrEqual(2);
      expect(await store.resealUnbound(reseal)).toBe(0);

      const provider = (await store.listOAuthProviders(organizationId)).find((p) => p.provider.id === providerRowId)!;
      const providerContext = providerSecretContext(organizationId, providerRowId);
      expect(box.decrypt(provider.sealedClientSecret!, providerContext)).toBe("client-secret");
      // Moved to another row or organization, the value no longer opens.
      expect(() =>
        box.decrypt(provider.sealedClientSecret!, providerSecretContext(organizationId, randomUUID())),
      ).toThrow();
      const [stored] = await inspector.listDeployments(
        tenantC,
        { limit: 1, offset: 0, deploymentIds: [legacy.deployment.id] },
        0,
      );
      const secretContext = deploymentSecretContext(organizationId, tenantC, legacy.deployment.id, "TOKEN");
      expect(box.decrypt(stored!.secrets[0]!.sealedValue, secretContext)).toBe("value");
      expect(() =>
        box.decrypt(
          stored!.secrets[0]!.sealedValue,
          deploymentSecretContext(organizationId, tenantB, legacy.deployment.id, "TOKEN"),
        ),
      ).toThrow();
    });

    it("creates with dense sequence numbers and strictly increasing created_at, even at one instant", async () => {
      const now = 1_700_000_000_000_000;
      const records = [];
      for (const name of ["one", "two", "three"])
        records.push(await store.createDeployment(newDeployment(tenantA, name), now));
      expect(records.map((r) => r.seq)).toEqual([1, 2, 3]);
      expect(records.map((r) => r.createdUs)).toEqual([now, now + 1, now + 2]);
      expect(records[0]).toMatchObject({
        deployment: { status: "AWAITING_DATABASE", active_revision_id: null },
        readyUs: now + 1_000_000,
      });
      // A clock that goes backwards cannot reorder them.
      const earlier = await store.createDeployment(newDeployment(tenantA, "four"), now - 5_000_000);
      expect(earlier.createdUs).toBe(now + 3);
    });

    it("a taken name stores nothing and leaves the sequence dense", async () => {
      const duplicate = newDeployment(tenantA, "one");
      await expect(store.createDeployment(duplicate, Date.now() * 1000)).rejects.toBeInstanceOf(UniqueViolation);
      expect(await inspector.listRevisions(tenantA, duplicate.deployment.id, 0)).toEqual([]);
      expect((await inspector.getTracingProject(tenantA, "one"))?.deploymentId).not.toBe(duplicate.deployment.id);
      const next = await store.createDeployment(newDeployment(tenantA, "five"), Date.now() * 1000);
      expect(next.seq).toBe(5);
      // The same name in another tenant is fine and numbered from 1 there.
      expect((await store.createDeployment(newDeployment(tenantB, "one"), Date.now() * 1000)).seq).toBe(1);
    });

    it("pages newest first by offset, the same with and without filters", async () => {
      const now = Date.now() * 1000;
      const all = (await inspector.listDeployments(tenantA, { limit: 100, offset: 0 }, now)).map(
        (d) => d.deployment.name,
      );
      expect(all).toEqual(["five", "four", "three", "two", "one"]);
      for (let offset = 0; offset <= 6; offset++) {
        const page = await inspector.listDeployments(tenantA, { limit: 2, offset }, now);
        const filtered = await inspector.listDeployments(tenantA, { limit: 2, offset, nameContains: "" }, now);
        expect(page.map((d) => d.deployment.name)).toEqual(all.slice(offset, offset + 2));
        expect(filtered.map((d) => d.deployment.name)).toEqual(all.slice(offset, offset + 2));
      }
    });

    it("applies each filter", async () => {
      const now = Date.now() * 1000;
      await store.createDeployment(
        newDeployment(tenantB, "img_%x", {
          deployment: { image_version: "1.0", source_config: { listener_id: randomUUID() } },
        }),
        now,
      );
      const names = async (query: object) =>
        (await inspector.listDeployments(tenantB, { limit: 100, offset: 0, ...query }, now)).map(
          (d) => d.deployment.name,
        );
      expect(await names({ nameContains: "%" })).toEqual(["img_%x"]);
      expect(await names({ nameContains: "IMG_" })).toEqual(["img_%x"]);
      expect(await names({ imageVersion: "1.0" })).toEqual(["img_%x"]);
      expect(await names({ remoteReconciled: true })).toEqual(["img_%x"]);
      expect(await names({ remoteReconciled: false })).toEqual(["one"]);
      expect(await names({ statuses: ["AWAITING_DATABASE"] })).toEqual(["img_%x", "one"]);
      expect(await names({ statuses: ["UNUSED"] })).toEqual([]);
      expect(await names({ matchNothing: true })).toEqual([]);
      const [first] = await inspector.listDeployments(tenantB, { limit: 1, offset: 0 }, now);
      expect(await names({ deploymentIds: [first!.deployment.id, randomUUID()] })).toEqual([first!.deployment.name]);
    });

    it("derives READY when provisioning ended and writes it down when promoted", async () => {
      const created = await store.createDeployment(
        newDeployment(tenantB, "ready-soon", { readyAfterUs: 0 }),
        Date.now() * 1000,
      );
      const later = created.createdUs + 1;
      const [seen] = await inspector.listDeployments(
        tenantB,
        { limit: 1, offset: 0, deploymentIds: [created.deployment.id] },
        later,
      );
      expect(seen).toMatchObject({
        deployment: { status: "READY", active_revision_id: created.deployment.latest_revision_id },
      });
      expect(
        (await inspector.listDeployments(tenantB, { limit: 10, offset: 0, statuses: ["READY"] }, later)).map(
          (d) => d.deployment.id,
        ),
      ).toEqual([created.deployment.id]);
      expect(await store.promoteReadyDeployments(later, 100)).toBeGreaterThanOrEqual(1);
      const [stored] = await inspector.listDeployments(
        tenantB,
        { limit: 1, offset: 0, deploymentIds: [created.deployment.id] },
        0,
      );
      expect(stored).toMatchObject({
        deployment: { status: "READY", active_revision_id: created.deployment.latest_revision_id },
        updatedUs: created.readyUs,
      });
      expect((await inspector.listRevisions(tenantB, created.deployment.id, 0))[0]?.status).toBe("DEPLOYED");
    });

    it("stores texts that read as the records' representations at every moment (D-83)", async () => {
      const tenant = randomUUID();
      await store.createTenant({ id: tenant, organizationId, name: "texts" });
      const first = await store.createDeployment(
        newDeployment(tenant, "t-1", {
          deployment: { secret_references: [{ name: "R", secret_name: "s", secret_key: "k" }] },
        }),
        Date.now() * 1000,
      );
      await store.createDeployment(
        newDeployment(tenant, 't-"quoted" ✓', {
          deployment: { image_version: "2.1", source_config: { listener_id: randomUUID() } },
          readyAfterUs: 5_000_000,
        }),
        Date.now() * 1000,
      );
      const same = async (query: DeploymentQuery, nowUs: number) => {
        const texts = await store.listDeploymentTexts(tenant, query, nowUs);
        const records = await inspector.listDeployments(tenant, query, nowUs);
        expect(JSON.parse(`[${await joinedPageTexts(texts)}]`)).toEqual(records.map(presentDeployment));
        expect(texts.count).toBe(records.length);
        return records.map((r) => r.deployment.status);
      };
      const queries: DeploymentQuery[] = [
        { limit: 10, offset: 0 },
        { limit: 1, offset: 1 },
        { limit: 10, offset: 0, nameContains: "T-" },
        { limit: 10, offset: 0, statuses: ["READY"] },
      ];
      for (const query of queries) await same(query, first.createdUs);
      // Provisioning of the first ended, not yet written down; then written down by the sweep.
      const between = first.readyUs + 1;
      expect(await same({ limit: 10, offset: 0 }, between)).toEqual(["AWAITING_DATABASE", "READY"]);
      for (const query of queries) await same(query, between);
      await store.promoteReadyDeployments(between, 100);
      for (const query of queries) await same(query, between);
      expect(await same({ limit: 10, offset: 0 }, 0)).toEqual(["AWAITING_DATABASE", "READY"]);
    });

    it("reads a heavy page a slice at a time, joining to the same texts at every moment (D-350)", async () => {
      const tenant = randomUUID();
      await store.createTenant({ id: tenant, organizationId, name: "heavy" });
      const heavyConfig = (i: number) => ({ labels: { k: `${i}`.repeat(100 * 1024) } }) as unknown as ResourceSpec;
      // Light and heavy interleaved: 100 KiB texts make slices of two (sliceBytes is 256 KiB).
      const made = [];
      for (const [i, heavy] of [false, true, true, false, true, true, true, false].entries())
        made.push(
          await store.createDeployment(
            newDeployment(tenant, `h-${i}${heavy ? "-heavy" : ""}`, {
              deployment: {
                ...(heavy ? { source_config: { resource_spec: heavyConfig(i) } } : {}),
                image_version: i % 2 === 0 ? "2.0" : null,
              },
              readyAfterUs: 5_000_000,
            }),
            Date.now() * 1000,
          ),
        );
      const heavyIds = made.filter((d) => d.deployment.name.endsWith("-heavy")).map((d) => d.deployment.id);
      const cases: Array<{ given: DeploymentQuery; want: { sliced: boolean } }> = [
        { given: { limit: 10, offset: 0 }, want: { sliced: true } },
        { given: { limit: 3, offset: 5 }, want: { sliced: true } },
        { given: { limit: 1, offset: 0 }, want: { sliced: false } },
        { given: { limit: 10, offset: 0, nameContains: "HEAVY" }, want: { sliced: true } },
        { given: { limit: 10, offset: 0, nameContains: "h-" }, want: { sliced: true } },
        { given: { limit: 10, offset: 0, imageVersion: "2.0" }, want: { sliced: true } },
        { given: { limit: 10, offset: 0, statuses: ["AWAITING_DATABASE"] }, want: { sliced: true } },
        { given: { limit: 10, offset: 0, deploymentIds: heavyIds.slice(0, 2) }, want: { sliced: true } },
        { given: { limit: 10, offset: 0, deploymentIds: [made[0]!.deployment.id] }, want: { sliced: false } },
      ];
      const first = made[0]!;
      // Before provisioning ends, after it ended unwritten, and after the sweep wrote it.
      for (const nowUs of [first.createdUs, first.readyUs + 1, "swept"] as const) {
        if (nowUs === "swept") await store.promoteReadyDeployments(first.readyUs + 1, 100);
        const at = nowUs === "swept" ? first.readyUs + 1 : nowUs;
        for (const { given, want } of cases) {
          const texts = await store.listDeploymentTexts(tenant, given, at);
          const records = await inspector.listDeployments(tenant, given, at);
          // The in-memory store holds its texts already: it never slices.
          expect("slices" in texts, JSON.stringify(given)).toBe(want.sliced && store.kind !== "memory");
          expect(JSON.parse(`[${await joinedPageTexts(texts)}]`)).toEqual(records.map(presentDeployment));
          expect(texts.count).toBe(records.length);
        }
      }
    });

    it("filters names by case-insensitive substring, with or without the trigram index (D-84)", async () => {
      const tenant = randomUUID();
      await store.createTenant({ id: tenant, organizationId, name: "names" });
      const names = [
        "Alpha-Beta",
        "alpha_beta",
        "50%-off",
        "100%_sure",
        "a%b",
        "a_b",
        "ab",
        "xAlPhAx",
        'quote"d',
        "Ünïcödé-name",
        "back\\slash",
      ];
      for (const name of names) await store.createDeployment(newDeployment(tenant, name), Date.now() * 1000);
      const needles = [
        "alpha",
        "ALPHA-",
        "a_b",
        "_",
        "%",
        "%_",
        "0%-",
        "a%b",
        "ab",
        "b",
        "pha_b",
        'e"d',
        "ÜNÏ",
        "cödé-n",
        "\\",
        "k\\s",
        "zzz",
        "lph",
        "ha-be",
      ];
      for (const needle of needles) {
        const listed = (
          await inspector.listDeployments(tenant, { limit: 100, offset: 0, nameContains: needle }, Date.now() * 1000)
        )
          .map((d) => d.deployment.name)
          .sort();
        expect(listed, needle).toEqual(
          names.filter((name) => name.toLowerCase().includes(needle.toLowerCase())).sort(),
        );
      }
    });

    it("pages a name filter newest first like the unfiltered list, whatever other tenants hold (D-84)", async () => {
      const [mine, theirs] = [randomUUID(), randomUUID()];
      for (const tenant of [mine, theirs]) await store.createTenant({ id: tenant, organizationId, name: tenant });
      // Interleaved creates in both tenants, some in one group commit, some matching "abc".
      for (let round = 0; round < 4; round++) {
        await Promise.all(
          Array.from({ length: 6 }, (_, i) => i).flatMap((i) => [
            store.createDeployment(
              newDeployment(mine, `${i % 2 ? "xABCx" : "zzz"}-${round}-${i}`, {
                deployment: { image_version: i % 3 ? null : "2.0" },
              }),
              Date.now() * 1000,
            ),
            store.createDeployment(newDeployment(theirs, `abc-${round}-${i}`), Date.now() * 1000),
          ]),
        );
      }
      const now = Date.now() * 1000;
      const newestFirst = (await inspector.listDeployments(mine, { limit: 100, offset: 0 }, now))
        .map((d) => d.deployment.name)
        .filter((name) => name.toLowerCase().includes("abc"));
      expect(newestFirst).toHaveLength(12);
      for (let offset = 0; offset <= 13; offset += 5) {
        const page = (await inspector.listDeployments(mine, { limit: 5, offset, nameContains: "aBc" }, now)).map(
          (d) => d.deployment.name,
        );
        const joined = await joinedPageTexts(
          await store.listDeploymentTexts(mine, { limit: 5, offset, nameContains: "aBc" }, now),
        );
        const texts = (JSON.parse(`[${joined}]`) as Array<{ name: string }>).map((deployment) => deployment.name);
        expect(page).toEqual(newestFirst.slice(offset, offset + 5));
        expect(texts).toEqual(page);
      }
      // With another filter, checked on each match (D-93): the same order, the same pages.
      const withImage = (await inspector.listDeployments(mine, { limit: 100, offset: 0 }, now))
        .filter((d) => d.deployment.name.toLowerCase().includes("abc") && d.deployment.image_version === "2.0")
        .map((d) => d.deployment.name);
      expect(withImage).toHaveLength(4);
      for (let offset = 0; offset <= 4; offset++) {
        const query = { limit: 2, offset, nameContains: "aBc", imageVersion: "2.0" };
        const page = (await inspector.listDeployments(mine, query, now)).map((d) => d.deployment.name);
        const joined = await joinedPageTexts(await store.listDeploymentTexts(mine, query, now));
        expect(page).toEqual(withImage.slice(offset, offset + 2));
        expect((JSON.parse(`[${joined}]`) as Array<{ name: string }>).map((d) => d.name)).toEqual(page);
      }
    });

    it("concurrent creates of distinct names get distinct dense numbers", async () => {
      const tenant = randomUUID();
      await store.createTenant({ id: tenant, organizationId, name: "concurrent" });
      const records = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          store.createDeployment(newDeployment(tenant, `c-${i}`), Date.now() * 1000),
        ),
      );
      expect(records.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const bySeq = [...records].sort((a, b) => a.seq - b.seq);
      for (let i = 1; i < bySeq.length; i++) expect(bySeq[i]!.createdUs).toBeGreaterThan(bySeq[i - 1]!.createdUs);
    });
  });
}
