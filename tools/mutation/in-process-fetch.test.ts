import { describe, expect, it } from "vitest";
import type { SentMessage } from "../../server/pipeline/fetch-adapter.js";
import { inProcessFetch } from "./in-process-fetch.js";

/** A handler that answers what it was given. */
async function seen(url: string, init?: RequestInit) {
  let got: { request: Request; sent?: SentMessage } | undefined;
  const send = inProcessFetch(async (request, sent) => {
    got = { request, sent };
    return new Response("ok");
  });
  await send(url, init);
  return got!;
}

describe("inProcessFetch", () => {
  it("adds Host and fetch's default headers, keeping the caller's", async () => {
    const { request } = await seen("http://target.invalid:8080/v2/deployments", { headers: { Accept: "text/plain" } });
    expect(request.headers.get("host")).toBe("target.invalid:8080");
    expect(request.headers.get("accept")).toBe("text/plain");
    expect(request.headers.get("user-agent")).toBe("node");
  });
  const cases: { name: string; url: string; init: RequestInit; want: Partial<SentMessage> & { carried: string } }[] = [
    {
      name: "the target as written, dot segments and encodings kept",
      url: "http://t.invalid/v2/../v2/deployments?name_contains=%41",
      init: {},
      want: { method: "GET", target: "/v2/../v2/deployments?name_contains=%41", carried: "GET" },
    },
    {
      name: "a method a Request refuses is carried as GET and told as sent",
      url: "http://t.invalid/v2/deployments",
      init: { method: "TRACE" },
      want: { method: "TRACE", carried: "GET" },
    },
  ];
  for (const { name, url, init, want } of cases)
    it(name, async () => {
      const { request, sent } = await seen(url, init);
      expect(request.method).toBe(want.carried);
      expect(sent).toMatchObject({
        method: want.method,
        ...(want.target ? { target: want.target } : {}),
        hostFields: 1,
      });
    });
  it("gives a body its Content-Length", async () => {
    const { request } = await seen("http://t.invalid/v2/deployments", { method: "POST", body: '{"a":"é"}' });
    expect(request.headers.get("content-length")).toBe("10");
    expect(await request.text()).toBe('{"a":"é"}');
  });
  it("gives bytes their length and sends a stream chunked, with none", async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const given = await seen("http://t.invalid/v2/deployments", { method: "POST", body: bytes });
    expect(given.request.headers.get("content-length")).toBe("3");
    expect(new Uint8Array(await given.request.arrayBuffer())).toEqual(bytes);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const streamed = await seen("http://t.invalid/v2/deployments", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.request.headers.get("content-length")).toBeNull();
    expect(streamed.request.headers.get("transfer-encoding")).toBe("chunked");
    expect(new Uint8Array(await streamed.request.arrayBuffer())).toEqual(bytes);
  });
});
