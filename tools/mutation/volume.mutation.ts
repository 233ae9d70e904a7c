/**
 * The volume phase of the mutation run (D-360): what a client sees only once one organization holds many or large
 * records, which no check of the suite makes, since a check shares its target with every later run (at most 500
 * providers, and no delete in the interface). On each store, over HTTP: a light page over 1 MiB goes out whole with
 * its length (D-92); a heavy page in chunks of at most 256 KiB (D-350); a burst of filtered lists beyond the
 * organization's line is refused 429 (D-113, D-283); the 501st OAuth provider is a 409 naming the limit (D-112); and
 * on SQLite, a tenant past one window of 2,000 rows is paged as if read whole (D-283, D-411).
 */
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { demo, operation, requestExamples } from "../../contract/index.js";
import { startedBeforeAll } from "../../server/testing/started-before-all.js";
import type { ListeningTarget } from "./targets.js";

const deploymentsPath = operation("listDeployments").path;
const providersPath = operation("createOAuthProvider").path;
const headers = { "X-Api-Key": demo.acme.apiKey, "Content-Type": "application/json" };
/** Bytes past which a deployment's text makes its page heavy (D-350). */
const heavyTextBytes = 16 * 1024;
/** The most bytes of one slice of a heavy page (D-350). */
const sliceBytes = 256 * 1024;
/** Rows of one SQLite window (D-283). */
const windowRows = 2000;

/** One request's status, headers and parsed body (or its text, when it is not JSON). */
async function send(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    signal: AbortSignal.timeout(30_000),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: json as { resources?: Array<{ name: string }>; type?: string; detail?: string } | undefined,
  };
}

/** Runs `make(0..count-1)`, `width` at a time, and fails on the first answer that is not `want`. */
async function inTurn(
  count: number,
  width: number,
  want: number,
  make: (i: number) => Promise<{ status: number; text: string }>,
) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const answer = await make(i);
      if (answer.status !== want) throw new Error(`request ${i}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/** A deployment with 100 secrets whose names make its text `nameLength` times about 100 bytes long. */
function withSecrets(name: string, nameLength: number) {
  return {
    name,
    source: "internal_container",
    source_config: {},
    source_revision_config: { image_uri: "registry.example/acme/agent:1.2.0" },
    secrets: Array.from({ length: 100 }, (_, i) => ({ name: `S${i}_`.padEnd(nameLength, "N"), value: `v${i}` })),
  };
}

/** A GET read off its socket as written: status line, headers, and the sizes of its chunks, with the body joined. */
function rawGet(baseUrl: string, path: string): Promise<{ head: string; chunks: number[]; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error(`GET ${path} left unanswered for 30 s`)));
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(received);
      const split = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, split).toString("latin1");
      let rest = all.subarray(split + 4);
      if (!/\r\ntransfer-encoding: chunked/i.test(head)) return resolve({ head, chunks: [], body: rest.toString() });
      const chunks: number[] = [];
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf("\r\n");
        const size = Number.parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
        if (!(size > 0)) break;
        chunks.push(size);
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        rest = rest.subarray(lineEnd + 2 + size + 2);
      }
      resolve({ head, chunks, body: Buffer.concat(parts).toString() });
    });
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Api-Key: ${demo.acme.apiKey}\r\nConnection: close\r\n\r\n`,
    );
  });
}

/** The statuses and Retry-After of `count` GETs of `path`, each on a connection of its own, all written in one turn. */
function burst(baseUrl: string, path: string, count: number): Promise<string[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve) => {
          const request = http.get(
            `${baseUrl}${path}`,
            { headers: { "X-Api-Key": demo.acme.apiKey }, agent: false },
            (response) => {
              response.resume();
              response.on("end", () =>
                resolve(`${response.statusCode} ${response.headers["retry-after"] ?? ""}`.trim()),
              );
            },
          );
          request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
        }),
    ),
  );
}

/** Up to ten bursts of 60, until one meets the organization's line full: every answer 200 or `429 1`. */
async function burstUntilRefused(baseUrl: string, path: string): Promise<string[]> {
  let answers: string[] = [];
  for (let tries = 0; tries < 10 && !answers.includes("429 1"); tries++) answers = await burst(baseUrl, path, 60);
  return answers;
}

describe.each(["sqlite", "postgres"] as const)("volume on %s", (database) => {
  let target: ListeningTarget | undefined;
  // loaded here, not with this file: a static mutant that throws while they load fails these tests (D-360)
  startedBeforeAll(async () => {
    const { referenceEnvironment, startReference } = await import("./targets.js");
    const where = referenceEnvironment("cloud", database);
    const server = await startReference(where.env);
    target = {
      baseUrl: server.baseUrl,
      close: async () => {
        await server.close();
        await where.remove();
      },
    };
    return target;
  });
  const base = () => target!.baseUrl;

  it("sends a light page over 1 MiB whole, with its Content-Length (D-92)", async () => {
    await inTurn(100, 8, 201, (i) => send(base(), "POST", deploymentsPath, withSecrets(`light-${i}`, 120)));
    const page = await send(base(), "GET", `${deploymentsPath}?limit=100`);
    expect(page.status).toBe(200);
    const bytes = Buffer.byteLength(page.text);
    expect(bytes).toBeGreaterThan(1024 * 1024);
    expect(page.headers.get("content-length")).toBe(String(bytes));
    expect(page.json?.resources).toHaveLength(100);
    const sizes = (page.json?.resources ?? []).map((record) => Buffer.byteLength(JSON.stringify(record)));
    expect(Math.max(...sizes)).toBeLessThan(heavyTextBytes);
  });

  it("sends a heavy page in chunks of at most 256 KiB (D-350)", async () => {
    await inTurn(12, 4, 201, (i) => send(base(), "POST", deploymentsPath, withSecrets(`heavy-${i}`, 255)));
    const page = await rawGet(base(), `${deploymentsPath}?limit=100`);
    expect(page.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(page.chunks.length).toBeGreaterThan(1);
    expect(Math.max(...page.chunks)).toBeLessThanOrEqual(sliceBytes);
    const resources = JSON.parse(page.body).resources as Array<{ name: string }>;
    expect(resources.map((record) => record.name.replace(/-\d+$/, ""))).toEqual([
      ...Array(12).fill("heavy"),
      ...Array(88).fill("light"),
    ]);
  });

  it("refuses the 501st OAuth provider of an organization with a 409 naming the limit (D-112)", async () => {
    const example = requestExamples(operation("createOAuthProvider"))[0]!.value as Record<string, unknown>;
    await inTurn(500, 8, 200, (i) => send(base(), "POST", providersPath, { ...example, provider_id: `volume-${i}` }));
    const over = await send(base(), "POST", providersPath, { ...example, provider_id: "volume-501st" });
    expect([over.status, over.json?.type]).toEqual([409, "urn:deployment-service:problem:conflict"]);
    expect(over.json?.detail).toContain("500 OAuth providers");
  });

  it.runIf(database === "sqlite")(
    "pages a filtered list past one window of 2,000 rows as if the tenant were read whole (D-283, D-411)",
    async () => {
      // the five oldest first, one at a time, so that they are the page's records
      for (let i = 0; i < 5; i++)
        expect(
          (await send(base(), "POST", deploymentsPath, { ...withSecrets(`window-${i}`, 1), secrets: [] })).status,
        ).toBe(201);
      await inTurn(windowRows + 5, 8, 201, (i) =>
        send(base(), "POST", deploymentsPath, { ...withSecrets(`window-${i + 5}`, 1), secrets: [] }),
      );
      // offset past the newest window's 2,000 matches, so that window is only counted and the page is in the next
      const page = await send(
        base(),
        "GET",
        `${deploymentsPath}?name_contains=window-&offset=${windowRows + 5}&limit=10`,
      );
      expect(page.status).toBe(200);
      expect(page.json?.resources?.map((record) => record.name)).toEqual([
        "window-4",
        "window-3",
        "window-2",
        "window-1",
        "window-0",
      ]);
    },
  );
  it("refuses a burst of filtered lists beyond the organization's line with 429 and Retry-After: 1, and holds no unfiltered list (D-113, D-283)", async () => {
    // on SQLite a page that walks two windows, with a turn of the event loop between them; on PostgreSQL every
    // query is a turn of its own
    const filtered =
      database === "sqlite"
        ? `name_contains=window-&offset=${windowRows + 5}&limit=10`
        : "name_contains=light&limit=100";
    const refused = await burstUntilRefused(base(), `${deploymentsPath}?${filtered}`);
    expect(new Set(refused)).toEqual(new Set(["200", "429 1"]));
    const unfiltered = await burst(base(), `${deploymentsPath}?limit=1`, 60);
    expect(new Set(unfiltered)).toEqual(new Set(["200"]));
  });
});
