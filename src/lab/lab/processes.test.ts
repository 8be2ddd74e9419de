import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { identify, procInfo, stillRunning, stopProcesses } from './processes.js';

function sleeper(ignoreTerm: boolean) {
  const script = ignoreTerm ? "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" : 'setInterval(() => {}, 1000)';
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

describe('lab processes', () => {
  it('identifies a process by start time and command line, and not a reused PID', async () => {
    const { child, exited } = sleeper(false);
    await new Promise((r) => child.once('spawn', r));
    const id = (await identify(child.pid!))!;
    expect(id.cmdline.startsWith(`${process.execPath} -e`)).toBe(true);
    expect(await stillRunning(id)).toBe(true);
    expect(await stillRunning({ ...id, start_ticks: id.start_ticks! + 1 })).toBe(false);
    expect(await stillRunning({ ...id, cmdline: '/usr/sbin/dnsmasq' })).toBe(false);
    expect(await stillRunning({ ...id, cmdline: 'other' }, [id.cmdline.slice(0, 10)])).toBe(true);
    child.kill('SIGKILL');
    await exited;
    expect(await procInfo(child.pid!)).toBeUndefined();
    expect(await stillRunning(id)).toBe(false);
  });

  it('reads the CPU time a process has used', async () => {
    const before = (await procInfo(process.pid))!.cpuTicks;
    for (const end = Date.now() + 300; Date.now() < end; ); // busy for 0.3 s
    const after = (await procInfo(process.pid))!.cpuTicks;
    expect(after - before).toBeGreaterThanOrEqual(10);
    expect(after - before).toBeLessThan(300);
  });

  it('stops with SIGTERM, falls back to SIGKILL, and leaves what is gone alone', async () => {
    const polite = sleeper(false);
    const stubborn = sleeper(true);
    await Promise.all([polite, stubborn].map(({ child }) => new Promise((r) => child.once('spawn', r))));
    await new Promise((r) => setTimeout(r, 300)); // the SIGTERM handler is installed
    const target = (label: string, pid: number) => ({ label, pid, isOurs: async () => (await procInfo(pid)) !== undefined });
    const outcome = await stopProcesses([target('polite', polite.child.pid!), target('stubborn', stubborn.child.pid!), target('gone', 0)], 500, 5000);
    expect(outcome.map((o) => [o.label, o.result])).toEqual([['polite', 'SIGTERM'], ['stubborn', 'SIGKILL'], ['gone', 'gone']]);
    await Promise.all([polite.exited, stubborn.exited]);
  });
});
