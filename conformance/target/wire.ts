/**
 * One HTTP/1.1 connection held open by hand (LAW-012, D-373): requests written on it one after another or pipelined,
 * each answer read off the wire by its Content-Length or chunked framing (none after HEAD, 204 and 304), so what one
 * answer leaves on the connection shows in the next. Bounded: every read waits at most the run's --timeout-ms, and
 * an answer is cut at 4 MiB.
 */
import { connect as plainConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";

/** A request written on the connection. */
export interface WireRequest {
  method: string;
  /** Path and query, as sent. */
  target: string;
  /** Written in absolute-form, scheme and authority first, which a server must accept too (RFC 9112 §3.2.2). */
  absolute?: boolean;
  headers: Record<string, string>;
  body?: string;
}

/** An answer read off the connection. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const maxAnswer = 4 * 1024 * 1024;

/** A connection to `baseUrl`'s host; `close()` ends it. */
export class WireConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly origin: string,
    /** The Host value of the base URL (`127.0.0.1:8080`). */
    readonly host: string,
    /** The base URL's path without its trailing slash, before every request target. */
    readonly basePath: string,
    private readonly timeoutMs: number,
  ) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    const end = () => {
      this.ended = true;
      this.wake?.();
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.on("error", end);
  }

  static open(baseUrl: string, timeoutMs: number): Promise<WireConnection> {
    const url = new URL(baseUrl);
    const tls = url.protocol === "https:";
    const port = Number(url.port || (tls ? 443 : 80));
    return new Promise((resolve, reject) => {
      const socket = tls
        ? tlsConnect({ host: url.hostname, port, servername: url.hostname }, () => done())
        : plainConnect({ host: url.hostname, port }, () => done());
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to ${url.host} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(new WireConnection(socket, url.origin, url.host, url.pathname.replace(/\/+$/, ""), timeoutMs));
      };
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Whether the server has closed the connection. */
  get closed(): boolean {
    return this.ended && this.buffer.length === 0;
  }

  /** Writes requests without waiting for any answer (one write for all: pipelined when more than one). */
  write(requests: WireRequest[]): void {
    const text = requests
      .map((r) => {
        const body = r.body ?? "";
        const headers: Record<string, string> = { Host: this.host, ...r.headers };
        if (r.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
        return `${r.method} ${r.absolute ? this.origin : ""}${this.basePath}${r.target} HTTP/1.1\r\n${Object.entries(
          headers,
        )
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n${body}`;
      })
      .join("");
    this.socket.write(text);
  }

  /** Writes bytes as they are: a request whose head or framing a check spells itself. */
  writeText(text: string): void {
    this.socket.write(text);
  }

  /** Reads the next answer to a request of `method`; throws when the bytes on the wire are not one. */
  async read(method: string): Promise<WireAnswer> {
    const headEnd = await this.until(() => {
      const at = this.buffer.indexOf("\r\n\r\n");
      return at >= 0 ? at : undefined;
    });
    const head = this.buffer.subarray(0, headEnd).toString("latin1");
    this.buffer = this.buffer.subarray(headEnd + 4);
    const [statusLine, ...lines] = head.split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "");
    if (!match)
      throw new Error(`the connection held ${JSON.stringify(head.slice(0, 120))} where a status line belongs`);
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200))
      return { status, headers, body: "" };
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) return { status, headers, body: await this.chunks() };
    const length = headers["content-length"];
    if (length === undefined) {
      await this.until(() => (this.ended ? this.buffer.length : undefined));
      return { status, headers, body: this.take(this.buffer.length) };
    }
    const n = Number(length);
    await this.until(() => (this.buffer.length >= n ? n : undefined));
    return { status, headers, body: this.take(n) };
  }

  close(): void {
    this.socket.destroy();
  }

  private take(n: number): string {
    const out = this.buffer.subarray(0, n).toString("utf8");
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  private async chunks(): Promise<string> {
    const parts: string[] = [];
    for (;;) {
      const lineEnd = await this.until(() => {
        const at = this.buffer.indexOf("\r\n");
        return at >= 0 ? at : undefined;
      });
      const size = Number.parseInt(this.buffer.subarray(0, lineEnd).toString("latin1"), 16);
      if (Number.isNaN(size)) throw new Error("a chunk size that is not hexadecimal");
      this.buffer = this.buffer.subarray(lineEnd + 2);
      if (size === 0) {
        await this.until(() => (this.buffer.indexOf("\r\n") >= 0 ? this.buffer.indexOf("\r\n") : undefined));
        this.buffer = this.buffer.subarray(this.buffer.indexOf("\r\n") + 2);
        return parts.join("");
      }
      await this.until(() => (this.buffer.length >= size + 2 ? size : undefined));
      parts.push(this.take(size));
      this.buffer = this.buffer.subarray(2);
    }
  }

  /** Waits until `ready` returns a number (or the connection ends, the answer grows past 4 MiB, or the time is up). */
  private async until(ready: () => number | undefined): Promise<number> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const got = ready();
      if (got !== undefined) return got;
      if (this.ended) throw new Error("the server closed the connection before a whole answer");
      if (this.buffer.length > maxAnswer) throw new Error("an answer longer than 4 MiB");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no whole answer within ${this.timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
