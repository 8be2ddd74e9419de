/**
 * `npm run bench:auth`: what authentication costs. Two `ingot serve` children in the same run, one with
 * `api.auth_strategy=noauth` and one with `http_basic` (an htpasswd file of one bcrypt entry, cost 10),
 * each with one node; `GET /v1/nodes/{id}` from this process over loopback keep-alive HTTP, the two
 * measured in turns (noauth, http_basic, noauth, …) so that both see the same machine. Prints the best
 * req/s of each and their ratio (goal: http_basic ≥ 0.8 × noauth). Options: --duration-s 3, --rounds 3,
 * --concurrency 8, --json FILE.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import bcrypt from 'bcryptjs';
import { spawnServer, type ChildServer } from './child.js';
import { LoadClient, runFor } from './http-load.js';

const { values: opts } = parseArgs({
  options: {
    'duration-s': { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    json: { type: 'string' },
  },
});
const durationMs = Number(opts['duration-s']) * 1000;
const rounds = Number(opts.rounds);
const concurrency = Number(opts.concurrency);
const GOAL = 0.8;
const LISTENING = /ingot: API listening on (http:\/\/\S+)/;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Starts `ingot serve` with the `api` settings given, on a data directory under `dir`. */
async function serve(dir: string, name: string, api: Record<string, unknown>): Promise<ChildServer> {
  const config = path.join(dir, `${name}.json`);
  await writeFile(config, JSON.stringify({ api: { host: '127.0.0.1', port: 0, inspector_port: 0, ...api }, log: { level: 'warn' } }));
  return spawnServer(['bin/ingot.js', 'serve', '--config', config, '--data-dir', path.join(dir, name)], LISTENING);
}

/** GET /v1/nodes/{id} for `durationMs`: req/s. */
async function measure(client: LoadClient, url: string): Promise<number> {
  const { calls, elapsedMs } = await runFor(durationMs, concurrency, async () => {
    const r = await client.request('GET', url);
    if (r.status !== 200) throw new Error(`GET ${url}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  });
  return (calls / elapsedMs) * 1000;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-auth-'));
  const servers: ChildServer[] = [];
  const clients: LoadClient[] = [];
  try {
    const file = path.join(dir, 'htpasswd');
    const password = 'bench-password';
    await writeFile(file, `bench:${bcrypt.hashSync(password, 10).replace(/^\$2b\$/, '$2y$')}\n`);
    const plain = await serve(dir, 'noauth', {});
    const basic = await serve(dir, 'http_basic', { auth_strategy: 'http_basic', http_basic_auth_user_file: file });
    servers.push(plain, basic);
    const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
    const cases = [
      { name: 'noauth', client: new LoadClient(plain.url, concurrency), rates: [] as number[], url: '' },
      { name: 'http_basic', client: new LoadClient(basic.url, concurrency, '1.82', { authorization }), rates: [] as number[], url: '' },
    ];
    for (const c of cases) {
      clients.push(c.client);
      const node = await c.client.json<{ uuid: string }>('POST', '/v1/nodes', { driver: 'fake-hardware', name: 'bench-auth' });
      c.url = `/v1/nodes/${node.uuid}`;
      // Warm-up: JIT, connections, and the one bcrypt check of http_basic.
      await runFor(500, concurrency, async () => void (await c.client.request('GET', c.url)));
    }
    const refused = await new LoadClient(basic.url, 1).request('GET', cases[1]!.url);
    if (refused.status !== 401) throw new Error(`http_basic without credentials answered ${refused.status}, not 401`);
    for (let round = 0; round < rounds; round++) for (const c of cases) c.rates.push(await measure(c.client, c.url));
    const best = cases.map((c) => Math.max(...c.rates));
    const ratio = best[1]! / best[0]!;
    log(`GET /v1/nodes/{id}, ${concurrency} clients, ${rounds} turns of ${durationMs / 1000} s each (best):`);
    for (const [i, c] of cases.entries()) log(`  ${c.name.padEnd(10)} ${best[i]!.toFixed(0).padStart(7)} req/s   (turns: ${c.rates.map((r) => r.toFixed(0)).join(', ')})`);
    log(`  http_basic / noauth = ${ratio.toFixed(2)}  (goal ≥ ${GOAL}) ${ratio >= GOAL ? 'ok' : 'BELOW GOAL'}`);
    if (opts.json) {
      await writeFile(opts.json, JSON.stringify({ noauth: best[0], http_basic: best[1], ratio, goal: GOAL, turns: Object.fromEntries(cases.map((c) => [c.name, c.rates])) }, null, 2));
    }
  } finally {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
