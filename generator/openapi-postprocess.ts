/**
 * What the TypeSpec emitter cannot write, added to its output by `npm run generate` and `npm run contract:check` alike:
 * constraints inside nullable branches (D-130), the `X-Request-Id` and `Access-Control-Allow-Origin` headers on every
 * answer (D-131, D-132), the development server's audience (D-137), `style: form` on
 * array query parameters and an example of each path parameter, the demo fixture's integration of its kind (D-135).
 */
import { demoFixture } from "../contract/demo.js";
import { moveNullableConstraints } from "./nullable-constraints.js";

type Node = Record<string, unknown>;

const requestIdHeader = {
  description:
    "Identifier of this request in the server's logs: the caller's `X-Request-Id` when it is 1-128 characters of letters, digits and `._:-`, otherwise a new UUID. Quote it when reporting a problem.",
  schema: { type: "string", maxLength: 128 },
};

const allowOriginHeader = {
  description:
    "The caller's `Origin`, when it is allowed to call from a browser (D-132): listed in `CORS_ORIGINS`, or a loopback origin in demo mode. Absent otherwise.",
  schema: { type: "string", maxLength: 2048 },
};

/** The path parameter components and the kind of demo integration their example names (TypeSpec emits no parameter example). */
const pathExampleKinds: Record<string, string> = { IntegrationPath: "plain", ManagedIntegrationPath: "managed" };

/** Rewrites the emitted document in place. */
export function postprocessOpenApi(document: Node): void {
  moveNullableConstraints(document);
  document.components ??= {};
  const components = document.components as Node;
  components.headers = {
    ...((components.headers as Node | undefined) ?? {}),
    "X-Request-Id": requestIdHeader,
    "Access-Control-Allow-Origin": allowOriginHeader,
  };
  // OWASP API9: the audience of each server; the only one is the local development default (D-135).
  for (const server of (document.servers ?? []) as Node[]) server["x-internal"] = true;
  for (const pathItem of Object.values(document.paths as Record<string, Node>)) {
    for (const operation of Object.values(pathItem) as Node[]) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Node>)) {
        response.headers = {
          ...((response.headers as Node | undefined) ?? {}),
          "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
          "Access-Control-Allow-Origin": { $ref: "#/components/headers/Access-Control-Allow-Origin" },
        };
      }
    }
  }
  for (const [name, parameter] of Object.entries((components.parameters ?? {}) as Record<string, Node>)) {
    const kind = pathExampleKinds[name];
    if (parameter.in === "path") {
      const integration = demoFixture.integrations.find((candidate) => candidate.kind === kind);
      if (!integration) throw new Error(`path parameter ${name}: no demo integration to give as its example`);
      parameter.example = integration.id;
    }
    const schema = parameter.schema as Node | undefined;
    if (parameter.in === "query" && schema?.type === "array" && parameter.style === undefined) {
      // Key order as a reader expects it: style before explode.
      const { explode, ...rest } = parameter;
      for (const key of Object.keys(parameter)) delete parameter[key];
      Object.assign(parameter, { ...rest, style: "form", ...(explode === undefined ? {} : { explode }) });
    }
  }
}
