/** The SQLite writer thread (D-91): a create is committed before it is answered, close commits what is queued, and a thread that fails rejects its writes instead of leaving them waiting. */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { newDeployment } from "../testing/new-deployment.js";
import { SqliteStore } from "./sqlite-store.js";
import { threadWriter } from "./sqlite-writer.js";
import { UniqueViolation } from "./store.js";

const organizationId = randomUUID();
const tenantId = randomUUID();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function storeOnFile(): Promise<{ store: SqliteStore; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-writer-"));
  dirs.push(dir);
  const file = path.join(dir, "s.sqlite");
  const store = new SqliteStore({ path: file });
  await store.migrate();
  await store.createOrganization({ id: organizationId, name: "Org" });
  await store.createTenant({ id: tenantId, organizationId, name: "t" });
  return { store, file };
}

/** The names stored in the file, read by a connection of its own. */
function storedNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM deployments ORDER BY seq").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

describe("SQLite writer thread", () => {
  it("answers a create only once it is committed: another connection reads it at once", async () => {
    const { store, file } = await storeOnFile();
    const record = await store.createDeployment(newDeployment(tenantId, "first"), Date.now() * 1000);
    expect(record.seq).toBe(1);
    expect(storedNames(file)).toEqual(["first"]);
    await store.close();
  });

  it("numbers concurrent creates densely, one group commit after another, and fails only the taken name", async () => {
    const { store, file } = await storeOnFile();
    const names = ["a", "b", "a", "c", "d"];
    const outcomes = await Promise.allSettled(
      names.map((name) => store.createDeployment(newDeployment(tenantId, name), Date.now() * 1000)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueViolation);
    const seqs = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.seq] : []));
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(storedNames(file)).toEqual(["a", "b", "c", "d"]);
    await store.close();
  });

  it("commits the creates still queued when the store closes", async () => {
    const { store, file } = await storeOnFile();
    const pending = Array.from({ length: 20 }, (_, i) =>
      store.createDeployment(newDeployment(tenantId, `q${i}`), Date.now() * 1000),
    );
    await store.close();
    await Promise.all(pending);
    expect(storedNames(file)).toHaveLength(20);
  });

  it("runs the provisioning sweep on the thread: READY is stored for every deployment whose time has come", async () => {
    const { store, file } = await storeOnFile();
    const createdUs = Date.now() * 1000;
    await store.createDeployment(newDeployment(tenantId, "ready"), createdUs);
    expect(await store.promoteReadyDeployments(createdUs + 2_000_000, 500)).toBe(1);
    expect(await store.promoteReadyDeployments(createdUs + 2_000_000, 500)).toBe(0);
    const db = new Database(file, { readonly: true });
    const row = db.prepare("SELECT status, rendered FROM deployments").get() as { status: string; rendered: string };
    db.close();
    expect(row.status).toBe("READY");
    expect(JSON.parse(row.rendered).status).toBe("READY");
    await store.close();
  });

  it("rejects a write whose thread cannot open its database instead of leaving it waiting", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-writer-"));
    dirs.push(dir);
    // A directory where the database file should be: the thread's connection fails to open.
    const writer = threadWriter(dir, "FULL");
    await expect(writer.create(newDeployment(tenantId, "lost"), Date.now() * 1000)).rejects.toThrow();
    await expect(writer.promoteReadyDeployments(Date.now() * 1000, 10)).rejects.toThrow();
    await writer.close();
  });
});
