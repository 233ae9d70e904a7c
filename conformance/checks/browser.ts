/** Checks of what a browser and a scheduler need beyond the interface spec: CORS (D-132) and ResourceSpec bounds and relations (D-133, D-134). */
import { httpToken } from "../../common/http-token.js";
import { ensure, expect2xx, expectStatus, isObject } from "../check-kit/assert.js";
import { paths } from "../check-kit/helpers.js";
import { deploymentBody, outOfProfile, plainSource } from "../model/data.js";
import type { Check, CheckContext } from "../runner/check.js";
import type { Exchange } from "../target/http-exchange.js";

/** The development origin of a browser front end (Vite's default port). */
const devOrigin = "http://localhost:5173";

/**
 * Origins outside D-132's policy, whatever `CORS_ORIGINS` a target lists: a host of the reserved `.invalid` domain,
 * https on a loopback host, a loopback origin with a path or with user information (not an origin), a host that
 * only starts with `localhost`, the opaque `null` origin, and an empty value.
 */
const outsideOrigins = [
  "http://example.invalid",
  "https://localhost:5173",
  "http://localhost:5173/app",
  "http://user@localhost:5173",
  "http://localhost.example.invalid:5173",
  "null",
  "",
];

/** Whether a Vary header names Origin. */
const varies = (vary: string) =>
  vary
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .includes("origin");

/** Fails when the answer carries any Access-Control-* header. */
function expectNoCors(exchange: Exchange, what: string): void {
  const names = Object.keys(exchange.response.headers).filter((name) =>
    name.toLowerCase().startsWith("access-control-"),
  );
  ensure(names.length === 0, `${what} carries ${names.join(", ")} (the origin is outside the policy)`, exchange);
}

/** Fails unless the 422 names this pointer among its errors. */
function expectPointer(exchange: Exchange, pointer: string, what: string): void {
  expectStatus(exchange, 422, what);
  const errors = isObject(exchange.json) && Array.isArray(exchange.json.errors) ? exchange.json.errors : [];
  ensure(
    errors.some((error) => isObject(error) && error.pointer === pointer),
    `${what}: the 422 does not name ${pointer} in errors`,
    exchange,
  );
}

/** Sends a create whose resource spec is `spec`, on the source the hosting kind accepts for it when it can. */
function createWithResources(ctx: CheckContext, spec: Record<string, unknown>): Promise<Exchange> {
  const source = ctx.config.hosting === "self_hosted" ? "external_container" : plainSource(ctx.config.hosting);
  const body = deploymentBody(ctx.name(`${outOfProfile}res`), source);
  return ctx.send({
    method: "POST",
    path: paths.deployments,
    operation: "createDeployment",
    json: { ...body, source_config: { ...(body.source_config as object), resource_spec: spec } },
  });
}

export const corsChecks: Check[] = [
  {
    id: "CORS-001",
    level: "SHOULD",
    tags: ["cors", "headers", "listDeployments"],
    statement: `A preflight from ${devOrigin} is answered 2xx with that origin, the contract's methods and request headers (each listed item a token) and a Max-Age`,
    specRef: "D-132",
    needs: [],
    async run(ctx) {
      const exchange = await ctx.send({
        method: "OPTIONS",
        path: paths.deployments,
        auth: "none",
        headers: {
          Origin: devOrigin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type,x-api-key,x-tenant-id",
        },
      });
      expect2xx(exchange, "preflight");
      const header = (name: string) => exchange.response.headers[name] ?? "";
      ensure(
        header("access-control-allow-origin") === devOrigin,
        `preflight: Access-Control-Allow-Origin is '${header("access-control-allow-origin")}', expected ${devOrigin}`,
        exchange,
      );
      // each header a list of tokens: a browser refuses the whole preflight over an item that is not one (Fetch,
      // CORS-preflight fetch), and matches methods exactly (RFC 9110 §9.1: a method name is case-sensitive)
      const listed = (name: string) => {
        const items = header(name)
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item !== "");
        const bad = items.filter((item) => !httpToken.test(item));
        ensure(
          bad.length === 0,
          `preflight: ${name} lists ${bad.map((item) => JSON.stringify(item)).join(", ")}, not a token`,
          exchange,
        );
        return items;
      };
      const methods = listed("access-control-allow-methods");
      for (const method of ["GET", "POST"])
        ensure(methods.includes(method), `preflight: ${method} is not an allowed method`, exchange);
      const allowed = listed("access-control-allow-headers").map((item) => item.toLowerCase());
      for (const name of ["content-type", "x-api-key", "x-tenant-id"])
        ensure(allowed.includes(name), `preflight: ${name} is not an allowed header`, exchange);
      ensure(
        /^\d+$/.test(header("access-control-max-age")),
        `preflight: Access-Control-Max-Age is '${header("access-control-max-age")}', expected a number of seconds`,
        exchange,
      );
    },
  },
  {
    id: "CORS-002",
    level: "SHOULD",
    tags: ["cors", "headers", "listDeployments"],
    statement: `An answer to ${devOrigin} (and to the same port on 127.0.0.1 and [::1]) carries that origin, exposes Retry-After and X-Request-Id and names Origin in Vary`,
    specRef: "D-132",
    needs: [],
    async run(ctx) {
      for (const origin of [devOrigin, "http://127.0.0.1:5173", "http://[::1]:5173"]) {
        const exchange = await ctx.send({
          method: "GET",
          path: paths.deployments,
          operation: "listDeployments",
          headers: { Origin: origin },
        });
        expect2xx(exchange, `list deployments from a browser at ${origin}`);
        const header = (name: string) => exchange.response.headers[name] ?? "";
        ensure(
          header("access-control-allow-origin") === origin,
          `Access-Control-Allow-Origin is '${header("access-control-allow-origin")}', expected ${origin}`,
          exchange,
        );
        const exposed = header("access-control-expose-headers").toLowerCase();
        for (const name of ["retry-after", "x-request-id"])
          ensure(exposed.includes(name), `${origin}: ${name} is not exposed`, exchange);
        ensure(varies(header("vary")), `${origin}: Vary is '${header("vary")}', expected it to name Origin`, exchange);
      }
    },
  },
  {
    id: "CORS-003",
    level: "SHOULD",
    tags: ["cors", "headers", "listDeployments"],
    statement:
      "An origin outside the policy (another host, https or a path or user on a loopback host, `null`, empty) gets no Access-Control-* header, on an answer and on a preflight",
    specRef: "D-132",
    needs: [],
    async run(ctx) {
      for (const origin of outsideOrigins) {
        const answer = await ctx.send({
          method: "GET",
          path: paths.deployments,
          operation: "listDeployments",
          headers: { Origin: origin },
        });
        expect2xx(answer, `list deployments from Origin '${origin}'`);
        expectNoCors(answer, `the list answer to Origin '${origin}'`);
        const preflight = await ctx.send({
          method: "OPTIONS",
          path: paths.deployments,
          auth: "none",
          headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
        });
        expectNoCors(preflight, `the preflight from Origin '${origin}'`);
      }
    },
  },
  {
    id: "CORS-004",
    level: "SHOULD",
    tags: ["cors", "headers", "options", "listDeployments"],
    statement: `OPTIONS from ${devOrigin} without Access-Control-Request-Method (absent or empty) is no preflight: 204 with Allow, that origin and Vary: Origin, no Access-Control-Allow-Methods; a GET with it is answered 200 as any list`,
    specRef: "D-132 (a preflight is OPTIONS with Access-Control-Request-Method); D-270 (204 to OPTIONS, with Allow)",
    needs: [],
    async run(ctx) {
      const cases: [string, Record<string, string>][] = [
        ["absent", { Origin: devOrigin }],
        ["empty", { Origin: devOrigin, "Access-Control-Request-Method": "" }],
      ];
      for (const [what, headers] of cases) {
        const exchange = await ctx.send({ method: "OPTIONS", path: paths.deployments, auth: "none", headers });
        const label = `OPTIONS from ${devOrigin}, Access-Control-Request-Method ${what}`;
        expectStatus(exchange, 204, label);
        const header = (name: string) => exchange.response.headers[name] ?? "";
        ensure(
          header("allow").toUpperCase().includes("GET"),
          `${label}: Allow is '${header("allow")}', expected it to name GET as any OPTIONS answer does`,
          exchange,
        );
        ensure(
          header("access-control-allow-origin") === devOrigin,
          `${label}: Access-Control-Allow-Origin is '${header("access-control-allow-origin")}', expected ${devOrigin}`,
          exchange,
        );
        ensure(varies(header("vary")), `${label}: Vary is '${header("vary")}', expected it to name Origin`, exchange);
        ensure(
          header("access-control-allow-methods") === "",
          `${label}: answered as a preflight (Access-Control-Allow-Methods '${header("access-control-allow-methods")}')`,
          exchange,
        );
      }
      // only OPTIONS is a preflight: a GET carrying the header is a request like any other
      const get = await ctx.send({
        method: "GET",
        path: paths.deployments,
        operation: "listDeployments",
        headers: { Origin: devOrigin, "Access-Control-Request-Method": "GET" },
      });
      expectStatus(get, 200, `GET from ${devOrigin} with Access-Control-Request-Method`);
      ensure(
        (get.response.headers["access-control-allow-methods"] ?? "") === "",
        `GET from ${devOrigin} with Access-Control-Request-Method: answered as a preflight`,
        get,
      );
    },
  },
];

export const resourceChecks: Check[] = [
  {
    id: "RES-001",
    level: "SHOULD",
    tags: ["validation", "createDeployment"],
    statement:
      "Resource values above their bound (max_scale 101, cpu 1e308, memory_mb 1048577) answer 422 naming the field",
    specRef: "D-133",
    needs: ["server"],
    async run(ctx) {
      const cases: [string, Record<string, unknown>][] = [
        ["max_scale", { max_scale: 101 }],
        ["cpu", { cpu: 1e308 }],
        ["memory_mb", { memory_mb: 1048577 }],
      ];
      for (const [field, spec] of cases) {
        const exchange = await createWithResources(ctx, spec);
        expectPointer(exchange, `/source_config/resource_spec/${field}`, `${field} above its bound`);
      }
    },
  },
  {
    id: "RES-002",
    level: "SHOULD",
    tags: ["validation", "createDeployment"],
    statement:
      "Resource values at their bound (max_scale 100, cpu 128, memory_mb 1048576) are accepted on a self-hosted service",
    specRef: "D-133",
    needs: ["write", "self_hosted"],
    async run(ctx) {
      const exchange = await createWithResources(ctx, {
        min_scale: 100,
        max_scale: 100,
        cpu: 64,
        cpu_limit: 128,
        memory_mb: 1048576,
        memory_limit_mb: 1048576,
      });
      expect2xx(exchange, "resources at their bounds");
    },
  },
  {
    id: "RES-003",
    level: "SHOULD",
    tags: ["validation", "createDeployment"],
    statement:
      "An inverted pair (min_scale 5 with max_scale 1; cpu 4 with cpu_limit 1) answers 422 naming the lower field",
    specRef: "D-134",
    needs: ["server"],
    async run(ctx) {
      const cases: [string, Record<string, unknown>][] = [
        ["min_scale", { min_scale: 5, max_scale: 1 }],
        ["cpu", { cpu: 4, cpu_limit: 1 }],
        ["queue_memory_mb", { queue_memory_mb: 512, queue_memory_limit_mb: 256 }],
      ];
      for (const [field, spec] of cases) {
        const exchange = await createWithResources(ctx, spec);
        expectPointer(exchange, `/source_config/resource_spec/${field}`, `${field} above its pair`);
      }
    },
  },
];
