import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { identify, procInfo, stillRunning, stopProcesses } from './processes.js';

/** A node child that idles (ignoring SIGTERM if asked); `ready` resolves once its signal handler is set. */
function sleeper(ignoreTerm: boolean) {
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {}); " : ''}setInterval(() => {}, 1000); process.stdout.write('ready\\n')`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, exited, ready };
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

  it('reads the CPU time a process has used, in clock ticks (100 a second), as the kernel counts it', async () => {
    // Compared with getrusage (process.cpuUsage) read at the same moments; how long the busy loop takes
    // on this machine does not matter.
    const ticks = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 10_000;
    const usageBefore = process.cpuUsage();
    const before = (await procInfo(process.pid))!.cpuTicks;
    while (ticks(process.cpuUsage(usageBefore)) < 30); // 0.3 s of CPU, however long that takes
    const after = (await procInfo(process.pid))!.cpuTicks;
    const used = ticks(process.cpuUsage(usageBefore));
    // Each reading is rounded down to a tick, and the /proc reads themselves cost a little.
    expect(Math.abs(after - before - used)).toBeLessThanOrEqual(3);
  });

  it('stops with SIGTERM, falls back to SIGKILL, and leaves what is gone alone', async () => {
    const polite = sleeper(false);
    const stubborn = sleeper(true);
    await Promise.all([polite.ready, stubborn.ready]);
    const target = (label: string, pid: number) => ({ label, pid, isOurs: async () => (await procInfo(pid)) !== undefined });
    const outcome = await stopProcesses([target('polite', polite.child.pid!), target('stubborn', stubborn.child.pid!), target('gone', 0)], 500, 5000);
    expect(outcome.map((o) => [o.label, o.result])).toEqual([['polite', 'SIGTERM'], ['stubborn', 'SIGKILL'], ['gone', 'gone']]);
    await Promise.all([polite.exited, stubborn.exited]);
  });
});
