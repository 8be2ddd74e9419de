import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDnsmasqPidFile } from './dnsmasq-pid.js';

let dir: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-pid-'));
});
afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('checkDnsmasqPidFile', () => {
  it('passes for a running process named dnsmasq', async () => {
    // A copy of sleep named dnsmasq: the kernel's command name is the file name.
    const bin = path.join(dir, 'dnsmasq');
    await copyFile('/bin/sleep', bin);
    child = spawn(bin, ['30'], { stdio: 'ignore' });
    await new Promise((r) => child!.once('spawn', r));
    await writeFile(path.join(dir, 'pid'), `${child.pid}\n`);
    await expect(checkDnsmasqPidFile(path.join(dir, 'pid'))).resolves.toBeUndefined();
  });

  it('fails clearly for a missing PID file, a non-PID, a dead PID and a PID reused by another program', async () => {
    const pidFile = path.join(dir, 'pid');
    await expect(checkDnsmasqPidFile(pidFile)).rejects.toMatchObject({ name: 'DriverOperationError', message: expect.stringContaining('cannot be read (ENOENT)') });
    await writeFile(pidFile, 'twelve');
    await expect(checkDnsmasqPidFile(pidFile)).rejects.toMatchObject({ name: 'DriverOperationError', message: expect.stringContaining('not a PID') });
    await writeFile(pidFile, `${2 ** 22 + 1}\n`);
    await expect(checkDnsmasqPidFile(pidFile)).rejects.toMatchObject({ message: expect.stringContaining('is gone') });
    await writeFile(pidFile, `${process.pid}\n`);
    await expect(checkDnsmasqPidFile(pidFile)).rejects.toMatchObject({ message: expect.stringMatching(/is "(node|vitest|MainThread)/) });
  });
});
