/**
 * `npm run bench:inspection`: in-band inspection of N simulated machines (default 500) from `inspect` to
 * `manageable`. `ingot serve` (SQLite) and `ingot bmc --simulate N --ingot-url …` run as child
 * processes; every machine is enrolled with the `ipmi` hardware type (boot interface `fake`, inspect
 * interface `agent`) and its PXE port, managed, then all
 * are inspected at once through the API: each network-boots, its simulated agent posts the inventory,
 * Ingot processes it and powers the machine off. Reports the wall time and the processing cost per
 * inventory (from the node history). Options: --machines 500, --json FILE.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { InventoryEntry } from '../src/bmc/inventory.js';
import { driverInfoFor } from '../src/bmc/inventory.js';
import { spawnServer, type ChildServer } from './child.js';
import { LoadClient, median, runCount } from './http-load.js';

const { values: opts } = parseArgs({ options: { machines: { type: 'string', default: '500' }, json: { type: 'string' } } });
const count = Number(opts.machines);

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function settle(client: LoadClient, done: (state: string) => boolean, timeoutMs: number): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await client.json<{ nodes: { name: string; provision_state: string; reservation: string | null }[] }>('GET', '/v1/nodes?fields=name,provision_state,reservation&limit=1000');
    if (page.nodes.length === count && page.nodes.every((n) => n.reservation === null && done(n.provision_state))) {
      return new Map(page.nodes.map((n) => [n.name, n.provision_state]));
    }
    if (Date.now() > deadline) throw new Error(`nodes did not settle in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-inspection-'));
  const children: ChildServer[] = [];
  try {
    const ingot = await spawnServer(
      ['bin/ingot.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', path.join(dir, 'db'), '--log-level', 'warn'],
      /ingot: API listening on (http:\/\/\S+)/,
    );
    children.push(ingot);
    const inventoryFile = path.join(dir, 'inventory.json');
    const bmc = await spawnServer(
      ['bin/ingot.js', 'bmc', '--simulate', String(count), '--redfish-port', '0', '--ipmi-port-base', '0',
        '--disk-dir', path.join(dir, 'disks'), '--inventory', inventoryFile, '--ingot-url', ingot.url, '--log-level', 'warn'],
      /ingot bmc: .*Redfish at (\S+);/,
      60_000,
    );
    children.push(bmc);
    const inventory = JSON.parse(await readFile(inventoryFile, 'utf8')) as InventoryEntry[];
    const client = new LoadClient(ingot.url, 16, '1.87');
    try {
      await runCount(inventory.length, 8, async (i) => {
        const e = inventory[i] as InventoryEntry;
        // Boot interface `fake`: a simulated machine runs its agent at every network boot, with no boot
        // config (TFTP, HTTP) for the ipmi hardware type's default `ipxe` to write.
        const node = await client.json<{ uuid: string }>('POST', '/v1/nodes', {
          name: e.name, driver: 'ipmi', inspect_interface: 'agent', boot_interface: 'fake', driver_info: driverInfoFor(e, 'ipmi'),
        });
        await client.json('POST', '/v1/ports', { node_uuid: node.uuid, address: e.macs[0], pxe_enabled: true });
        await client.json('PUT', `/v1/nodes/${node.uuid}/states/provision`, { target: 'manage' });
      });
      await settle(client, (s) => s === 'manageable', 300_000);
      log(`enrolled and managed ${count} machines`);

      // As Ironic's clients do, a request answered 503 (all conductor workers busy) is retried shortly.
      let busy = 0;
      const t0 = performance.now();
      await runCount(inventory.length, 16, async (i) => {
        for (;;) {
          const r = await client.request('PUT', `/v1/nodes/${(inventory[i] as InventoryEntry).name}/states/provision`, { target: 'inspect' });
          if (r.status === 202) return;
          if (r.status !== 503) throw new Error(`inspect: HTTP ${r.status} ${r.body.slice(0, 300)}`);
          busy++;
          await new Promise((res) => setTimeout(res, 100));
        }
      });
      const states = await settle(client, (s) => s === 'manageable' || s === 'inspect failed', 600_000);
      const seconds = (performance.now() - t0) / 1000;
      const failed = [...states.values()].filter((s) => s !== 'manageable').length;

      const costs: number[] = [];
      for (const e of inventory.slice(0, Math.min(100, inventory.length))) {
        const h = await client.json<{ history: { event: string }[] }>('GET', `/v1/nodes/${e.name}/history`);
        for (const ev of h.history) {
          const ms = /^inventory processed in ([\d.]+) ms/.exec(ev.event)?.[1];
          if (ms !== undefined) costs.push(Number(ms));
        }
      }
      log(`inspection of ${count} machines, inspect -> manageable: ${seconds.toFixed(1)} s (goal <= 60 s), ${failed} failed, ${busy} requests retried on 503`);
      log(`processing cost per inventory: median ${median(costs).toFixed(2)} ms, max ${Math.max(...costs).toFixed(2)} ms (over ${costs.length} nodes)`);
      if (opts.json) await writeFile(opts.json, `${JSON.stringify({ at: new Date().toISOString(), machines: count, seconds, failed, processing_ms_median: median(costs) }, null, 2)}\n`);
      if (failed > 0) process.exitCode = 1;
    } finally {
      client.close();
    }
  } finally {
    await Promise.all(children.reverse().map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
