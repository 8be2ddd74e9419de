/** Keep-alive HTTP load generation over loopback for the benchmark (node:http, no extra library). */
import http from 'node:http';

/** One answer: status and body text. */
export interface Reply {
  status: number;
  body: string;
}

/** A keep-alive client for one base URL. */
export class LoadClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  /** `sockets` bounds the open connections (one per concurrent client); `headers` go with every request (credentials). */
  constructor(baseUrl: string, sockets: number, private readonly version = '1.82', private readonly headers: http.OutgoingHttpHeaders = {}) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  /** Sends one request; the body (if any) is JSON. */
  request(method: string, path: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = { ...this.headers, 'X-OpenStack-Ironic-API-Version': this.version, Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: no answer within 60 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Sends one request and requires a status in `ok`; returns the parsed JSON body (or null). */
  async json<T>(method: string, path: string, body?: unknown, ok: number[] = [200, 201, 202, 204]): Promise<T> {
    const r = await this.request(method, path, body);
    if (!ok.includes(r.status)) throw new Error(`${method} ${path}: HTTP ${r.status} ${r.body.slice(0, 500)}`);
    return (r.body ? JSON.parse(r.body) : null) as T;
  }

  /** Closes the idle connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task(i)` for i in [0, count) with `concurrency` workers; returns elapsed milliseconds. */
export async function runCount(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return performance.now() - started;
}

/** Runs `task` in `concurrency` loops for `durationMs`; returns completed calls and elapsed milliseconds. */
export async function runFor(
  durationMs: number,
  concurrency: number,
  task: () => Promise<void>,
): Promise<{ calls: number; elapsedMs: number }> {
  let calls = 0;
  const started = performance.now();
  const until = started + durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      await task();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { calls, elapsedMs: performance.now() - started };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
