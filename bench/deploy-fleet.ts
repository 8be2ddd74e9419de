/**
 * `npm run bench:deploy`: deployment of 200 simulated machines (the demo's fleet, `src/main/demo.ts`) by
 * `ingot serve` on its embedded default, all at once, measured from the `deploy` requests to the last node
 * `active` — through the whole agent path: iPXE script, kernel and ramdisk from the HTTP boot server,
 * lookup, token, heartbeats, `standby.prepare_image` of a 16 MiB raw image with a config drive, power off
 * and on through Redfish and IPMI. Ingot, the BMC emulators and the 200 agents share this process and the
 * machine's 2 cores. Goal: ≤ 120 s. Options: --machines 200, --image-mib 16, --json FILE.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/main/load-config.js';
import { demoConfig, formatReport, startDemo } from '../src/main/demo.js';
import { startServer } from '../src/main/serve.js';
import { createLogger } from '../src/shared/logger.js';

const { values: opts } = parseArgs({ options: { machines: { type: 'string', default: '200' }, 'image-mib': { type: 'string', default: '16' }, json: { type: 'string' } } });
const count = Number(opts.machines);
const GOAL_S = 120;

const dir = await mkdtemp(path.join(tmpdir(), 'ingot-bench-deploy-'));
const logger = createLogger('error');
const config = demoConfig(loadConfig({ env: {}, flags: { database: { data_dir: dir }, api: { host: '127.0.0.1', port: 0, inspector_port: 0 }, log: { level: 'error' } } }), count);
const server = await startServer(config, logger);
try {
  const started = Date.now();
  const demo = await startDemo(server, { count, run: true, inspect: false, imageMib: Number(opts['image-mib']), diskDir: path.join(dir, 'disks'), out: (l) => console.log(l), logger });
  const report = await demo.done;
  await demo.close();
  for (const line of formatReport(report)) console.log(line);
  const deploy = report.phases.find((p) => p.phase === 'deploy');
  const seconds = deploy?.seconds ?? NaN;
  const mem = process.memoryUsage();
  console.log(`\ndeploy of ${count} simulated machines: ${seconds.toFixed(1)} s from the deploy requests to the last active (goal ≤ ${GOAL_S} s: ${seconds <= GOAL_S && deploy?.failed === 0 ? 'met' : 'NOT met'}); ${deploy?.failed ?? '?'} failed; whole run ${((Date.now() - started) / 1000).toFixed(1)} s; RSS of the process (Ingot + BMCs + agents) ${(mem.rss / 2 ** 20).toFixed(0)} MiB`);
  if (opts.json) await writeFile(opts.json, JSON.stringify({ machines: count, deploySeconds: seconds, goalSeconds: GOAL_S, report }, null, 2));
  if (!deploy || deploy.failed > 0 || report.failures.length > 0) process.exitCode = 1;
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
