/**
 * `npm run bench:agent-write`: the agent's image write (`standby.prepare_image`: HTTP download → sha256
 * computed while writing → disk file) against `curl URL -o file` of the same bytes, in the same run. A
 * node:http server on loopback streams a raw image of incompressible data (a random MiB repeated); both
 * write to a fresh file on the same file system. Options: --size-mib 2048, --runs 3, --dir DIR, --json FILE.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
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

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(opts.dir ?? tmpdir(), 'ingot-bench-write-'));
  const hash = createHash('sha256');
  for (let i = 0; i < sizeMib; i++) hash.update(chunk);
  const sha256 = hash.digest('hex');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': sizeMib * MIB, 'content-type': 'application/octet-stream' });
    let sent = 0;
    const pump = (): void => {
      while (sent < sizeMib) {
        sent++;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/image.raw`;
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
  const agentS: number[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const out = path.join(dir, 'curl.out');
      let t0 = performance.now();
      await run('curl', ['-s', '-o', out, url]);
      curlS.push((performance.now() - t0) / 1000);
      await unlink(out);

      await writeFile(disk, '');
      // Sparse, and at least the 4 GiB the agent (like IPA) wants of a root disk.
      await truncate(disk, Math.max(sizeMib + 64, 5 * 1024) * MIB);
      t0 = performance.now();
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
      log(`run ${r + 1}: curl ${curlS[r]?.toFixed(2)} s, agent ${agentS[r]?.toFixed(2)} s`);
    }
  } finally {
    await agent.stop();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  const curlMibS = sizeMib / median(curlS);
  const agentMibS = sizeMib / median(agentS);
  const ratio = agentMibS / curlMibS;
  log(`image write of ${sizeMib} MiB (median of ${runs}): curl ${curlMibS.toFixed(0)} MiB/s, agent ${agentMibS.toFixed(0)} MiB/s (with sha256) -> ${ratio.toFixed(2)}x curl (goal >= 0.9x)`);
  if (opts.json) await writeFile(opts.json, JSON.stringify({ sizeMib, runs, curlS, agentS, curlMibS, agentMibS, ratio }, null, 2));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
