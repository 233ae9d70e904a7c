/**
 * The round trip (D-400): for every operation that creates, every field of its request that the created record's
 * schema has too comes back equal in the create answer and in the list, for each source on each hosting kind and on
 * each store; masked (D-55) and defaulted (the contract's `default`) as the contract says. Fields, operations and
 * bodies are read from the contract, so a field that no code keeps fails here by name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitsNull } from "../contract/admits-null.js";
import type { SchemaObject } from "../contract/document.js";
import { requestExamples } from "../contract/examples.js";
import type { DeploymentSource } from "../contract/schemas.js";
import { readField, sourcesAvailableOn } from "../contract/source-rules.js";
import type { Store } from "./storage/store.js";
import {
  createOperations,
  defaultedFields,
  fullBody,
  itemsOf,
  propertiesOf,
  returnedFields,
} from "./testing/round-trip.js";
import { startTestServer, type TestServer, testDatabaseUrl } from "./testing/test-server.js";

/** What a response shows of a secret value (D-55). */
const maskedValue = "********";

/** The fields an answer shows as a rule of the contract says rather than as sent: field → what it shows for the value sent. */
const answeredAs: Record<string, (sent: unknown) => unknown> = {
  // D-55: names as given, values masked.
  secrets: (sent) => (sent as Array<{ name: string }>).map(({ name }) => ({ name, value: maskedValue })),
};

const stores: Array<{ kind: Store["kind"]; skip: boolean }> = [
  { kind: "memory", skip: false },
  { kind: "sqlite", skip: false },
  { kind: "postgres", skip: !testDatabaseUrl },
];

type Operation = ReturnType<typeof createOperations>[number]["create"];

/** One body to send: a title (its source) and the body. */
interface Case {
  title: string;
  body: Record<string, unknown>;
}

const creates = createOperations();
let unique = 0;

/** The bodies of an operation on a hosting kind: one per source available there (for a body with `source`), else one. */
function casesOf(create: Operation, hosting: "cloud" | "self_hosted"): Case[] {
  const examples = requestExamples(create).map(({ value }) => value as Record<string, unknown>);
  const schema = create.requestBody?.schema as SchemaObject;
  const named = (body: Record<string, unknown>) => {
    unique += 1;
    for (const key of ["name", "provider_id"]) if (key in propertiesOf(schema)) body[key] = `rt-${unique}`;
    return body;
  };
  if (!("source" in propertiesOf(schema)))
    return [{ title: "every field", body: named(fullBody(create, examples[0] ?? {})) }];
  return sourcesAvailableOn(hosting).map((source: DeploymentSource) => {
    const example = examples.find((value) => value.source === source) ?? { source };
    return { title: source, body: named(fullBody(create, example, source)) };
  });
}

/** What differs between what was sent and what came back, one line per field. */
function differences(sent: Record<string, unknown>, fields: string[], answer: unknown, where: string): string[] {
  return fields.flatMap((field) => {
    const rule = answeredAs[field];
    const want = rule ? rule(readField(sent, field)) : readField(sent, field);
    const got = readField(answer as object, field);
    return JSON.stringify(got) === JSON.stringify(want) || isDeepEqual(got, want)
      ? []
      : [`${field}: sent ${JSON.stringify(want)}, ${where} answered ${JSON.stringify(got)}`];
  });
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}

for (const { kind, skip } of stores)
  for (const hosting of ["cloud", "self_hosted"] as const)
    describe.skipIf(skip)(`round trip on ${kind}, ${hosting}`, () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer({ hosting }, { storeKind: kind });
      });
      afterAll(async () => server?.close());

      /** Creates with `body` and answers the create's record and the list's record of the same id. */
      async function roundTrip(create: Operation, list: Operation, body: Record<string, unknown>) {
        const created = await server.request("POST", create.path, { body });
        expect(created.status, created.text).toBe(create.successStatus);
        const listed = await server.request("GET", list.path);
        expect(listed.status, listed.text).toBe(list.successStatus);
        const items = (Array.isArray(listed.body) ? listed.body : listed.body.resources) as Array<{ id: string }>;
        return { answer: created.body as unknown, item: items.find(({ id }) => id === created.body.id) };
      }

      for (const { create, list } of creates) {
        const request = create.requestBody?.schema as SchemaObject;
        const record = itemsOf(create.responses[String(create.successStatus)]?.schema as SchemaObject);
        for (const { title, body } of casesOf(create, hosting))
          it(`${create.id} (${title}): every field sent comes back in the answer and the list`, async () => {
            const fields = returnedFields(body, request, record);
            const { answer, item } = await roundTrip(create, list, body);
            expect([
              ...differences(body, fields, answer, "the create"),
              ...differences(body, fields, item, "the list"),
            ]).toEqual([]);
          });

        const defaults = defaultedFields({}, request).filter(([name]) => name in propertiesOf(record));
        it.skipIf(defaults.length === 0)(
          `${create.id}: a field left out comes back as the contract's default`,
          async () => {
            const body = { ...casesOf(create, hosting)[0]!.body };
            for (const [name] of defaults) delete body[name];
            const want = Object.fromEntries(defaults);
            const fields = Object.keys(want);
            const { answer, item } = await roundTrip(create, list, body);
            expect([
              ...differences(want, fields, answer, "the create"),
              ...differences(want, fields, item, "the list"),
            ]).toEqual([]);
          },
        );

        // D-482: an optional field left out that has no default comes back as null, a new one like the others.
        const nullable = Object.entries(propertiesOf(record))
          .filter(([name, property]) => {
            const optional = !(request.required ?? []).includes(name) && !(record.required ?? []).includes(name);
            return name in propertiesOf(request) && optional && property.default === undefined && admitsNull(property);
          })
          .map(([name]) => name);
        it.skipIf(nullable.length === 0)(`${create.id}: an optional field left out comes back as null`, async () => {
          const body = { ...casesOf(create, hosting)[0]!.body };
          for (const name of nullable) delete body[name];
          const want = Object.fromEntries(nullable.map((name) => [name, null]));
          const { answer, item } = await roundTrip(create, list, body);
          expect([
            ...differences(want, nullable, answer, "the create"),
            ...differences(want, nullable, item, "the list"),
          ]).toEqual([]);
        });
      }
    });
