import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { processCommandLine } from './dnsmasq-pid.js';
import { ManagedDnsmasq, type ManagedDnsmasqOptions } from './managed-dnsmasq.js';

let dir: string;
const started: ManagedDnsmasq[] = [];
const strays: ChildProcess[] = [];

/** A stand-in for dnsmasq: a Node script with `body`, recording its arguments. */
async function fake(body: string): Promise<string> {
  const file = path.join(dir, `fake-dnsmasq-${started.length}-${Math.random().toString(16).slice(2)}`);
  await writeFile(file, `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(path.join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2)));\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}
const READY = "console.error('dnsmasq-dhcp: DHCP, sockets bound exclusively to interface fake0'); setInterval(() => {}, 1000);";

function managed(dnsmasqPath: string, extra: Partial<ManagedDnsmasqOptions> = {}): ManagedDnsmasq {
  const m = new ManagedDnsmasq({ dnsmasqPath, configFile: path.join(dir, 'dnsmasq.conf'), config: 'port=0\n', pidFile: path.join(dir, 'dnsmasq.pid'), ...extra });
  started.push(m);
  return m;
}
const gone = async (pid: number) => (await processCommandLine(pid)) === undefined;
/** Waits until the process `pid` runs its program: its command line names `conf` (not yet while it is still being exec'd). */
const runs = (pid: number, conf: string) => vi.waitUntil(async () => (await processCommandLine(pid))?.includes(conf) ?? false, { timeout: 10_000, interval: 10 });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-managed-'));
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.close()));
  for (const p of strays.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('managed dnsmasq', () => {
  it('writes its configuration, starts in the foreground, resolves once bound, and is stopped by PID on close', async () => {
    const lines: string[] = [];
    const m = managed(await fake(READY), { onLine: (l) => lines.push(l) });
    await m.start();
    const pid = m.pid!;
    expect(pid).toBeGreaterThan(0);
    expect(await readFile(path.join(dir, 'dnsmasq.conf'), 'utf8')).toBe('port=0\n');
    expect(JSON.parse(await readFile(path.join(dir, 'argv.json'), 'utf8'))).toEqual(['--no-daemon', `--conf-file=${path.join(dir, 'dnsmasq.conf')}`]);
    expect(await readFile(path.join(dir, 'dnsmasq.pid'), 'utf8')).toBe(`${pid}\n`);
    expect(lines).toEqual(['dnsmasq-dhcp: DHCP, sockets bound exclusively to interface fake0']);
    expect(() => m.check()).not.toThrow();
    await m.close();
    expect(await gone(pid)).toBe(true);
    expect(m.pid).toBeUndefined();
    await expect(readFile(path.join(dir, 'dnsmasq.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => m.check()).toThrow(expect.objectContaining({ name: 'DriverOperationError' }));
    await m.close();
  });

  it('names the package when dnsmasq is not installed', async () => {
    await expect(managed(path.join(dir, 'no-dnsmasq')).start()).rejects.toMatchObject({
      name: 'ConfigInvalid', message: expect.stringContaining('apt-get install dnsmasq-base'),
    });
  });

  it('reports what dnsmasq said when it refuses to start', async () => {
    const m = managed(await fake("console.error('dnsmasq: unknown interface fake0'); process.exit(2);"));
    await expect(m.start()).rejects.toMatchObject({ name: 'ConfigInvalid', message: expect.stringMatching(/code 2.*unknown interface fake0/) });
  });

  it('gives up and stops it when dnsmasq never binds', async () => {
    const m = managed(await fake('setInterval(() => {}, 1000);'), { startTimeoutMs: 300 });
    const start = m.start();
    await expect(start).rejects.toMatchObject({ name: 'DriverOperationError', message: expect.stringContaining('did not bind') });
    expect(m.pid).toBeUndefined();
  });

  it('honours an abort while starting', async () => {
    const m = managed(await fake('setInterval(() => {}, 1000);'));
    const ac = new AbortController();
    const start = m.start(ac.signal);
    setTimeout(() => ac.abort(new Error('shutting down')), 100);
    await expect(start).rejects.toThrow('shutting down');
    expect(m.pid).toBeUndefined();
  });

  it('fails its check once dnsmasq has died', async () => {
    const m = managed(await fake(`${READY} setTimeout(() => { console.error('dnsmasq: failed to allocate memory'); process.exit(3); }, 100);`));
    await m.start();
    for (let i = 0; i < 100 && m.pid !== undefined; i++) await new Promise((r) => setTimeout(r, 50));
    expect(() => m.check()).toThrow(expect.objectContaining({ name: 'DriverOperationError', message: expect.stringMatching(/code 3.*failed to allocate/) }));
  });

  it('stops a dnsmasq an earlier run left behind, but no process that merely reuses its PID', async () => {
    const configFile = path.join(dir, 'dnsmasq.conf');
    const leftover = spawn(await fake('setInterval(() => {}, 1000);'), ['--no-daemon', `--conf-file=${configFile}`], { stdio: 'ignore' });
    strays.push(leftover);
    await runs(leftover.pid as number, `--conf-file=${configFile}`);
    await writeFile(path.join(dir, 'dnsmasq.pid'), `${leftover.pid}\n`);
    const exited = new Promise((r) => leftover.once('exit', r));
    await managed(await fake(READY)).start();
    await exited;
    expect(leftover.signalCode).toBe('SIGTERM');

    const unrelated = spawn(await fake('setInterval(() => {}, 1000);'), ['--conf-file=/elsewhere.conf'], { stdio: 'ignore' });
    strays.push(unrelated);
    await runs(unrelated.pid as number, '--conf-file=/elsewhere.conf');
    await Promise.all(started.splice(0).map((m) => m.close()));
    await writeFile(path.join(dir, 'dnsmasq.pid'), `${unrelated.pid}\n`);
    await managed(await fake(READY)).start();
    expect(unrelated.exitCode === null && unrelated.signalCode === null).toBe(true);
  });
});
