/**
 * `npm run bench`: measures `ingot serve` (SQLite in a temporary directory, a child process) from this
 * process over loopback keep-alive HTTP, next to a baseline (a bare node:http server answering the same
 * requests with a fixed node document, another child process), and prints each figure with the real
 * Ironic 21.4 reference and the goal. Options: --duration-s 5, --nodes 10000, --lifecycle 200,
 * --creates 2000, --list-runs 15, --database-url postgres://… (instead of SQLite), --json FILE.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { memoryMiB, spawnServer, type ChildServer } from './child.js';
import { LoadClient, median, runCount, runFor } from './http-load.js';
import { lifecycle } from './lifecycle.js';

const CONCURRENCY = 8;

const { values: opts } = parseArgs({
  options: {
    'duration-s': { type: 'string', default: '5' },
    nodes: { type: 'string', default: '10000' },
    lifecycle: { type: 'string', default: '200' },
    creates: { type: 'string', default: '2000' },
    'list-runs': { type: 'string', default: '15' },
    'database-url': { type: 'string' },
    json: { type: 'string' },
  },
});

const durationMs = Number(opts['duration-s']) * 1000;
const totalNodes = Number(opts.nodes);
const lifecycleNodes = Number(opts.lifecycle);
const creates = Number(opts.creates);
const listRuns = Number(opts['list-runs']);

/** One line of the report. */
interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ironic: number;
  goal: number;
  /** true when more is better. */
  higher: boolean;
  /** Shown for information: the goal is judged on another figure. */
  info?: boolean;
  note: string;
}

const figures: Figure[] = [];
const gc = (globalThis as { gc?: () => void }).gc;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function measureCreate(client: LoadClient, count: number, prefix: string): Promise<number> {
  const ms = await runCount(count, CONCURRENCY, async (i) => {
    const r = await client.request('POST', '/v1/nodes', { driver: 'fake-hardware', name: `${prefix}-${i}` });
    if (r.status !== 201) throw new Error(`create ${prefix}-${i}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
  });
  return (count / ms) * 1000;
}

async function measureGet(client: LoadClient, pathName: string): Promise<number> {
  const { calls, elapsedMs } = await runFor(durationMs, CONCURRENCY, async () => {
    const r = await client.request('GET', pathName);
    if (r.status !== 200) throw new Error(`GET ${pathName}: HTTP ${r.status}`);
  });
  return (calls / elapsedMs) * 1000;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-'));
  const children: ChildServer[] = [];
  const clients: LoadClient[] = [];
  const onSignal = () => {
    void Promise.all(children.map((c) => c.stop())).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const args = ['bin/ingot.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir];
    if (opts['database-url']) args.push('--database-url', opts['database-url']);
    const ingot = await spawnServer(args, /ingot: API listening on (http:\/\/\S+)/);
    children.push(ingot);
    const client = new LoadClient(ingot.url, CONCURRENCY * 2);
    clients.push(client);
    log(`ingot serve pid ${ingot.pid} at ${ingot.url}, ${opts['database-url'] ? 'PostgreSQL' : `SQLite in ${dataDir}`}; ${CONCURRENCY} concurrent clients`);

    // A sample node as Ingot renders it, for the baseline's fixed answer.
    const sample = await client.json<{ uuid: string }>('POST', '/v1/nodes', { driver: 'fake-hardware', name: 'bench-sample' });
    const sampleBody = (await client.request('GET', `/v1/nodes/${sample.uuid}`)).body;
    const bodyFile = path.join(dataDir, 'baseline-node.json');
    await writeFile(bodyFile, sampleBody);
    const baseline = await spawnServer([path.join('dist', 'bench', 'baseline-server.js'), bodyFile, '0'], /baseline listening on (http:\/\/\S+)/);
    children.push(baseline);
    const baseClient = new LoadClient(baseline.url, CONCURRENCY * 2);
    clients.push(baseClient);
    log(`baseline pid ${baseline.pid} at ${baseline.url}, fixed node document of ${Buffer.byteLength(sampleBody)} bytes`);

    // Warm both up (JIT, connections) outside the measured windows.
    await measureCreate(client, 200, 'bench-warm');
    await measureCreate(baseClient, 200, 'warm');

    gc?.();
    const createRate = await measureCreate(client, creates, 'bench-create');
    const baseCreate = await measureCreate(baseClient, creates, 'base');
    figures.push({ name: 'node create', value: createRate, unit: '/s', baseline: baseCreate, ironic: 63, goal: 1000, higher: true,
      note: `${creates} POST /v1/nodes, ${CONCURRENCY} concurrent` });

    gc?.();
    const getRate = await measureGet(client, `/v1/nodes/${sample.uuid}`);
    const baseGet = await measureGet(baseClient, `/v1/nodes/${sample.uuid}`);
    figures.push({ name: 'GET one node', value: getRate, unit: 'req/s', baseline: baseGet, ironic: 150, goal: 5000, higher: true,
      note: `${CONCURRENCY} clients for ${durationMs / 1000} s` });

    /** One timed detailed list of 1000 nodes; returns the time and the listed UUIDs. */
    const listDetail = async (): Promise<{ ms: number; uuids: string[] }> => {
      // Timed: request to the last byte of the answer. The check parses the 2.6 MB body afterwards, so
      // the bench's own JSON.parse is not counted as the server's time.
      const t = performance.now();
      const r = await client.request('GET', '/v1/nodes?detail=True&limit=1000');
      const ms = performance.now() - t;
      if (r.status !== 200) throw new Error(`list: HTTP ${r.status} ${r.body.slice(0, 300)}`);
      const page = JSON.parse(r.body) as { nodes: { uuid: string }[] };
      if (page.nodes.length !== 1000) throw new Error(`list returned ${page.nodes.length} nodes, expected 1000`);
      return { ms, uuids: page.nodes.map((n) => n.uuid) };
    };

    // Warm: the same page again and again, as pollers see it when few nodes change between polls.
    const runs: number[] = [];
    let pageUuids: string[] = [];
    for (let i = 0; i < listRuns + 2; i++) {
      const { ms, uuids } = await listDetail();
      pageUuids = uuids;
      if (i >= 2) runs.push(ms);
    }
    figures.push({ name: 'list 1000 nodes, detail', value: median(runs), unit: 'ms', ironic: 450, goal: 40, higher: false,
      note: `time to the last byte, repeated lists of the same nodes, median of ${listRuns} runs (min ${Math.min(...runs).toFixed(1)}, max ${Math.max(...runs).toFixed(1)})` });

    // Cold: every listed node changed since the previous list (one PATCH of `extra` each, untimed), so
    // no rendered node can be reused and every row is read and rendered again.
    const coldRuns: number[] = [];
    for (let i = 0; i < listRuns; i++) {
      await runCount(pageUuids.length, CONCURRENCY, async (j) => {
        const r = await client.request('PATCH', `/v1/nodes/${pageUuids[j]}`, [{ op: 'add', path: '/extra/bench_poll', value: i }]);
        if (r.status !== 200) throw new Error(`PATCH ${pageUuids[j]}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
      });
      const { ms, uuids } = await listDetail();
      pageUuids = uuids;
      coldRuns.push(ms);
    }
    figures.push({ name: 'list 1000 nodes, detail, cold', value: median(coldRuns), unit: 'ms', ironic: 450, goal: 40, higher: false, info: true,
      note: `as above, but all 1000 nodes changed before each list; median of ${listRuns} runs (min ${Math.min(...coldRuns).toFixed(1)}, max ${Math.max(...coldRuns).toFixed(1)})` });

    const life = await lifecycle(client, lifecycleNodes, 'bench-life');
    figures.push({ name: `${lifecycleNodes}-node lifecycle`, value: life.wallMs / 1000, unit: 's', ironic: 63, goal: 3, higher: false,
      note: `manage→provide→deploy→undeploy, all at once; ${life.lockRetries} retries on 409/503` });

    const have = 1 + 200 + creates + lifecycleNodes;
    const missing = Math.max(0, totalNodes - have);
    await measureCreate(client, missing, 'bench-fill');
    const count = (await client.json<{ nodes: unknown[] }>('GET', '/v1/nodes?fields=uuid&limit=1000')).nodes.length;
    if (count < 1000) throw new Error(`expected at least 1000 nodes, saw ${count}`);
    await new Promise((r) => setTimeout(r, 2000));
    const loaded = memoryMiB(ingot.pid);
    figures.push({ name: 'resident memory after the load', value: loaded.rss, unit: 'MiB', ironic: 165, goal: 100, higher: false, info: true,
      note: `VmRSS of the server that served every figure above, after 2 s idle (peak VmHWM ${loaded.peak.toFixed(0)} MiB); heap V8 keeps after the load` });

    // The steady state an operator sees: a server holding the enrolled nodes, started on the same
    // database, after it has listed every node once (detail pages of 1000).
    await ingot.stop();
    children.splice(children.indexOf(ingot), 1);
    client.close();
    const again = await spawnServer(args, /ingot: API listening on (http:\/\/\S+)/);
    children.push(again);
    const client2 = new LoadClient(again.url, CONCURRENCY * 2);
    clients.push(client2);
    let listed = 0;
    let next: string | undefined = '/v1/nodes?detail=True&limit=1000';
    while (next) {
      const page: { nodes: unknown[]; next?: string } = await client2.json('GET', next);
      listed += page.nodes.length;
      next = page.next ? new URL(page.next).pathname + new URL(page.next).search : undefined;
    }
    await new Promise((r) => setTimeout(r, 2000));
    const mem = memoryMiB(again.pid);
    figures.push({ name: `resident memory, ${listed} nodes`, value: mem.rss, unit: 'MiB', ironic: 165, goal: 100, higher: false,
      note: `VmRSS of a server started on the database with ${listed} enrolled nodes, after listing them all in detail and 2 s idle (peak VmHWM ${mem.peak.toFixed(0)} MiB)` });

    await report();
  } finally {
    for (const c of clients) c.close();
    await Promise.all(children.map((c) => c.stop()));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function fmt(v: number): string {
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

async function report(): Promise<void> {
  log('');
  log('figure                        | ingot          | baseline (ratio)        | Ironic 21.4 | goal      | met');
  log('------------------------------|----------------|-------------------------|-------------|-----------|----');
  for (const f of figures) {
    const base = f.baseline === undefined ? '-' : `${fmt(f.baseline)} ${f.unit} (${(f.value / f.baseline).toFixed(2)}x)`;
    const met = f.info ? 'info' : (f.higher ? f.value >= f.goal : f.value <= f.goal) ? 'yes' : 'NO';
    const goal = `${f.higher ? '>=' : '<='} ${f.goal} ${f.unit}`;
    log(
      `${f.name.padEnd(30)}| ${`${fmt(f.value)} ${f.unit}`.padEnd(15)}| ${base.padEnd(24)}| ${`${f.ironic} ${f.unit}`.padEnd(12)}| ${goal.padEnd(10)}| ${met}`,
    );
  }
  log('');
  for (const f of figures) log(`${f.name}: ${f.note}`);
  if (opts.json) {
    await writeFile(opts.json, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, figures }, null, 2)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
