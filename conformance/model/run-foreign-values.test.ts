import { describe, expect, it } from "vitest";
import type { Exchange } from "../target/http-exchange.js";
import { RunForeignValues } from "./run-foreign-values.js";

type Json = Record<string, unknown>;

const create = (body: Json, answer: Json): Exchange => ({
  request: { method: "POST", url: "http://t/v2/deployments", headers: {}, body: JSON.stringify(body) },
  response: { status: 201, headers: {}, body: JSON.stringify(answer) },
  json: answer,
  operation: "createDeployment",
  durationMs: 1,
});
const page = (resources: Json[]): Exchange => ({
  request: { method: "GET", url: "http://t/v2/deployments", headers: {} },
  response: { status: 200, headers: {}, body: "" },
  json: { resources, offset: resources.length },
  operation: "listDeployments",
  durationMs: 1,
});

const refs = [{ name: "REF", secret_name: "cf-secret-one", secret_key: "key" }];
const first = { name: "cf-first-one", secret_references: refs, secrets: [{ name: "S", value: "cf-value-one" }] };
const firstRecord = { ...first, id: "d1", status: "AWAITING_DATABASE", secrets: [{ name: "S", value: "********" }] };
const second = { name: "cf-second-one", secrets: [] };

describe("RunForeignValues", () => {
  it.each([
    {
      name: "each record shows what its own create sent",
      given: [create(first, firstRecord), create(second, { ...second, id: "d2", status: "AWAITING_DATABASE" })],
      want: undefined,
    },
    {
      name: "a create answered with the secret references the create before it sent",
      given: [create(first, firstRecord), create(second, { ...second, id: "d2", secret_references: refs })],
      want: 'the record d2 shows "cf-secret-one", which its own create did not send and the create of d1 did',
    },
    {
      name: "a listed record with another's name in a field of its own",
      given: [
        create(first, firstRecord),
        create(second, { ...second, id: "d2" }),
        page([firstRecord, { ...second, id: "d2", source_config: { install_command: "cf-first-one" } }]),
      ],
      want: 'the record d2 shows "cf-first-one", which its own create did not send and the create of d1 did',
    },
    {
      name: "a default and the target's own members are no value of another body",
      given: [
        create({ ...first, token_endpoint_auth_method: "client_secret_post" }, firstRecord),
        create(second, { ...second, id: "d2", token_endpoint_auth_method: "client_secret_post", tenant_id: "d1" }),
      ],
      want: undefined,
    },
    {
      name: "a uuid sent in upper case and written back in lower case is the record's own",
      given: [
        create({ ...first, source_config: { listener_id: "0F0E0D0C-0B0A-4908-8706-050403020100" } }, firstRecord),
        create(
          { ...second, source_config: { listener_id: "0F0E0D0C-0B0A-4908-8706-050403020100" } },
          {
            ...second,
            id: "d2",
            source_config: { listener_id: "0f0e0d0c-0b0a-4908-8706-050403020100" },
          },
        ),
      ],
      want: undefined,
    },
    {
      name: "a record no create of the run made is not read",
      given: [create(first, firstRecord), page([{ id: "old", name: "cf-first-one" }])],
      want: undefined,
    },
  ])("$name", ({ given, want }) => {
    const run = new RunForeignValues();
    for (const exchange of given) run.see(exchange);
    expect(run.first?.why).toBe(want);
  });
});
