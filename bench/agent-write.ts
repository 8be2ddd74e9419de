/**
 * `npm run bench:agent-write`: the agent's image write (`standby.prepare_image`: HTTP download → sha256
 * computed while writing → disk file → fsync) against `curl URL -o file` of the same bytes followed by
 * `sync file` (coreutils: fsync of that one file), in the same run. A node:http server on loopback, on
 * its own worker thread (as the image server is another machine for a real agent), streams a raw image
 * of incompressible data (a random MiB repeated); both write to a fresh file on the same file system.
 * Before each timed part (untimed) the other side's file is freed and the file system committed; the
 * side that goes first alternates from run to run. Options: --size-mib 2048, --runs 3, --dir DIR, --json FILE.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { startDeployAgent } from '../src/agent/deploy-agent.js';
import { simulatedDeployHost } from '../src/agent/deploy-host.js';
import { hostSystem } from '../src/agent/system.js';
import { simulatedProfile } from '../src/bmc/profiles.js';
import { AgentClient } from '../src/drivers/agent/client.js';
import { median } from './http-load.js';

const { values: opts } = parseArgs({
  options: { 'size-mib': { type: 'string', default: '2048' }, runs: { type: 'string', default: '3' }, dir: { type: 'string' }, json: { type: 'string' } },
});
const sizeMib = Number(opts['size-mib']);
const runs = Number(opts.runs);
const run = promisify(execFile);

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const MIB = 1024 * 1024;
const chunk = randomBytes(MIB);

/** The image server (run on a worker thread): `sizeMib` times the same MiB, with a Content-Length. */
const SERVER = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const chunk = Buffer.from(workerData.chunk);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-length': workerData.sizeMib * chunk.length, 'content-type': 'application/octet-stream' });
  let sent = 0;
  const pump = () => {
    while (sent < workerData.sizeMib) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(opts.dir ?? tmpdir(), 'ingot-bench-write-'));
  const hash = createHash('sha256');
  for (let i = 0; i < sizeMib; i++) hash.update(chunk);
  const sha256 = hash.digest('hex');
  const server = new Worker(SERVER, { eval: true, workerData: { chunk, sizeMib } });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${port}/image.raw`;
  const token = randomBytes(32).toString('base64url');
  const profile = simulatedProfile(0, 'bench');
  const disk = path.join(dir, 'disk');
  const agent = await startDeployAgent({
    apiUrl: null, host: simulatedDeployHost(profile, { diskFiles: { [profile.disks[0]?.name ?? '/dev/sda']: disk } }), system: hostSystem(),
    addresses: [], listenHost: '127.0.0.1', listenPort: 0, agentToken: token, log: () => undefined,
  });
  const node = { uuid: 'bench', driver_internal_info: { agent_url: agent.callbackUrl, agent_secret_token: token } };
  const client = new AgentClient({ timeoutMs: 600_000 });
  const curlS: number[] = [];
  const syncS: number[] = [];
  const agentS: number[] = [];
  const out = path.join(dir, 'curl.out');
  /** Untimed: the previous image and curl's file gone, the file system committed. */
  const settle = async () => {
    await writeFile(disk, '');
    await rm(out, { force: true });
    // ext4 mounted with `discard` trims freed blocks at the next commit, which would otherwise fall
    // into the next timed fsync.
    await run('sync', ['-f', dir]);
  };
  const timeCurl = async () => {
    await settle();
    let t0 = performance.now();
    await run('curl', ['-s', '-o', out, url]);
    curlS.push((performance.now() - t0) / 1000);
    t0 = performance.now();
    await run('sync', [out]);
    syncS.push((performance.now() - t0) / 1000);
  };
  const timeAgent = async (r: number) => {
    await settle();
    // Sparse, and at least the 4 GiB the agent (like IPA) wants of a root disk.
    await truncate(disk, Math.max(sizeMib + 64, 5 * 1024) * MIB);
    await run('sync', ['-f', dir]);
    const t0 = performance.now();
    const started = await client.command(node, 'standby.prepare_image', {
      // A new image id each run: the agent (as IPA) skips writing the image it wrote last.
      image_info: { id: `bench-${r}`, urls: [url], os_hash_algo: 'sha256', os_hash_value: sha256, disk_format: 'raw' },
    });
    let result = started;
    while (result.command_status === 'RUNNING') {
      await new Promise((res) => setTimeout(res, 20));
      result = (await client.commands(node)).find((c) => c.id === started.id) ?? result;
    }
    agentS.push((performance.now() - t0) / 1000);
    if (result.command_status !== 'SUCCEEDED') throw new Error(`prepare_image failed: ${JSON.stringify(result.command_error)}`);
  };
  try {
    for (let r = 0; r < runs; r++) {
      // Alternate which side goes first, so that neither always finds the disk idle or busy with the other's writeback.
      if (r % 2 === 0) {
        await timeCurl();
        await timeAgent(r);
      } else {
        await timeAgent(r);
        await timeCurl();
      }
      const c = curlS[r] as number;
      const cs = c + (syncS[r] as number);
      const a = agentS[r] as number;
      log(`run ${r + 1}: curl ${c.toFixed(2)} s, curl + sync ${cs.toFixed(2)} s, agent ${a.toFixed(2)} s (agent ÷ curl + sync ${(cs / a).toFixed(2)}x)`);
    }
  } finally {
    await agent.stop();
    server.postMessage('close');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
  const curlSyncS = curlS.map((c, i) => c + (syncS[i] as number));
  const curlMibS = sizeMib / median(curlS);
  const curlSyncMibS = sizeMib / median(curlSyncS);
  const agentMibS = sizeMib / median(agentS);
  const ratio = agentMibS / curlSyncMibS;
  const ratioNoSync = agentMibS / curlMibS;
  log(
    `image write of ${sizeMib} MiB (median of ${runs}): curl ${curlMibS.toFixed(0)} MiB/s, curl + sync ${curlSyncMibS.toFixed(0)} MiB/s, ` +
      `agent ${agentMibS.toFixed(0)} MiB/s (sha256, fsync)`,
  );
  log(`agent ÷ (curl + sync), both with fsync: ${ratio.toFixed(2)}x (goal >= 0.9x); agent ÷ curl without its sync: ${ratioNoSync.toFixed(2)}x`);
  if (opts.json) await writeFile(opts.json, JSON.stringify({ sizeMib, runs, curlS, syncS, agentS, curlMibS, curlSyncMibS, agentMibS, ratio, ratioNoSync }, null, 2));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
