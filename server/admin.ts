/** `npm run admin -- <command>` (admin command): creates organizations, tenants and API keys of a real installation; a new key is printed once. */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { generateApiKey, hashApiKey } from "./auth/api-keys.js";
import { ConfigError, loadConfig } from "./config.js";
import { deploymentRenderer } from "./presenters/deployment-text.js";
import { openStore } from "./storage/open-store.js";
import type { Store } from "./storage/store.js";

const usage = `Usage: npm run admin -- <command> [options]
  create-organization --name <name> [--id <uuid>]
  create-tenant --organization <uuid> --name <name> [--id <uuid>]
  create-api-key --organization <uuid> --tenant <uuid> [--tenant <uuid> ...] [--label <text>]
      (the first --tenant is the key's default tenant; the key is printed once and stored hashed)
The database is the server's: DATABASE_URL, else SQLITE_PATH (default ./data/service.sqlite).`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs one admin command; returns the lines to print. */
export async function runAdmin(store: Store, argv: string[]): Promise<string[]> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      id: { type: "string" },
      organization: { type: "string" },
      tenant: { type: "string", multiple: true },
      label: { type: "string" },
    },
    strict: true,
  });
  const uuid = (value: string | undefined, option: string): string => {
    if (value === undefined || !uuidPattern.test(value)) throw new UsageError(`--${option} must be a UUID`);
    return value.toLowerCase();
  };
  switch (command) {
    case "create-organization": {
      if (!values.name) throw new UsageError("--name is required");
      const id = values.id ? uuid(values.id, "id") : randomUUID();
      await store.createOrganization({ id, name: values.name });
      return [`organization ${id} (${values.name}) created`];
    }
    case "create-tenant": {
      if (!values.name) throw new UsageError("--name is required");
      const organizationId = uuid(values.organization, "organization");
      const id = values.id ? uuid(values.id, "id") : randomUUID();
      await store.createTenant({ id, organizationId, name: values.name });
      return [`tenant ${id} (${values.name}) created in organization ${organizationId}`];
    }
    case "create-api-key": {
      const organizationId = uuid(values.organization, "organization");
      const tenantIds = (values.tenant ?? []).map((t) => uuid(t, "tenant"));
      if (tenantIds.length === 0) throw new UsageError("at least one --tenant is required");
      for (const tenantId of tenantIds) {
        const tenant = await store.getTenant(tenantId);
        if (!tenant || tenant.organizationId !== organizationId)
          throw new UsageError(`tenant ${tenantId} is not a tenant of organization ${organizationId}`);
      }
      const key = generateApiKey();
      const id = randomUUID();
      await store.createApiKey({
        id,
        organizationId,
        keyHash: hashApiKey(key),
        label: values.label ?? "",
        defaultTenantId: tenantIds[0] as string,
        tenantIds,
      });
      return [
        `api key ${id} created; it reaches ${tenantIds.join(", ")} (default ${tenantIds[0]})`,
        "Store it now, it is not shown again:",
        key,
      ];
    }
    default:
      throw new UsageError(command ? `unknown command '${command}'` : "a command is required");
  }
}

export class UsageError extends Error {
  override name = "UsageError";
}

async function main(): Promise<void> {
  let store: Store | undefined;
  try {
    store = await openStore(loadConfig(), deploymentRenderer);
    for (const line of await runAdmin(store, process.argv.slice(2))) process.stdout.write(`${line}\n`);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || (error as Error).name === "TypeError") {
      process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    } else {
      process.stderr.write(`admin: ${(error as Error).message}\n`);
    }
    process.exitCode = 1;
  } finally {
    await store?.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
