/** What a page on http://localhost:5173 sees of a target's CORS (D-132): a preflight for a create, and a list's answer. Shared by the server's and the sandbox's CORS tests. */

const origin = "http://localhost:5173";

/** The CORS headers of one answer, and its status. */
interface CorsSeen {
  status: number;
  allowOrigin: string | null;
  allowMethods: string | null;
  allowHeaders: string | null;
  exposeHeaders: string | null;
}

async function seen(response: Response): Promise<CorsSeen> {
  await response.body?.cancel();
  const header = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    allowOrigin: header("access-control-allow-origin"),
    allowMethods: header("access-control-allow-methods"),
    allowHeaders: header("access-control-allow-headers"),
    exposeHeaders: header("access-control-expose-headers"),
  };
}

/** The preflight of a POST to /v2/deployments that asks for `requestHeaders` (comma-separated). */
export async function preflightCreate(url: string, requestHeaders: string): Promise<CorsSeen> {
  return seen(
    await fetch(`${url}/v2/deployments`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": requestHeaders,
      },
    }),
  );
}

/** A list of deployments with `apiKey`, sent from the page. */
export async function listFromPage(url: string, apiKey: string): Promise<CorsSeen> {
  return seen(await fetch(`${url}/v2/deployments`, { headers: { Origin: origin, "X-Api-Key": apiKey } }));
}
