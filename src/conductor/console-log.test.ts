import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_TAIL_BYTES, readTail } from './console-log.js';
import { Task } from './task.js';
import { createNodeIn, startTestConductor, type TestConductor } from './conductor.test-support.js';

let t: TestConductor;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-console-'));
  await mkdir(path.join(dir, 'consoles'));
  t = await startTestConductor({ console_logs_dir: path.join(dir, 'kept'), console_log_allowed_paths: [path.join(dir, 'consoles')] });
});
afterEach(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function failDeploy(name: string): Promise<string> {
  const task = await Task.acquire(t.conductor.context, name);
  try {
    await task.process('deploy');
    await task.process('fail', { lastError: 'the agent never called back' });
  } finally {
    await task.release();
  }
  const node = await t.store.nodes.get(name);
  const entries = await t.store.history.list(node.id, { limit: 100 });
  return entries.map((h) => h.event).find((e) => e.startsWith('deploying -> deploy failed'))!;
}

describe('console log kept on failure', () => {
  it('copies the tail of the node’s console log and names the copy in the failure’s history entry', async () => {
    const live = path.join(dir, 'consoles', 'serial.log');
    const early = 'early boot line\n'.repeat(8192); // 128 KiB, more than the tail kept
    await writeFile(live, `${early}iPXE: no DHCP offer on net0\nlast line\n`);
    await createNodeIn(t, 'n1', 'available', { driver_info: { console_log_file: live } });
    const event = await failDeploy('n1');
    expect(event).toMatch(/^deploying -> deploy failed \(fail\): the agent never called back \(console log: (.+)\)$/);
    const kept = /\(console log: (.+)\)$/.exec(event)![1]!;
    expect(path.dirname(kept)).toBe(path.join(dir, 'kept'));
    const text = await readFile(kept, 'utf8');
    expect(text.endsWith('iPXE: no DHCP offer on net0\nlast line\n')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CONSOLE_TAIL_BYTES);
    expect(text.startsWith('early boot line\n')).toBe(true); // cut at a line boundary
    // The live log goes on; the kept copy does not change.
    await writeFile(live, 'next boot\n');
    expect(await readFile(kept, 'utf8')).toBe(text);
  });

  it('keeps the copy with the node’s secrets and secret-looking values masked', async () => {
    const live = path.join(dir, 'consoles', 'masked.log');
    await writeFile(live, 'kernel: ipmi_password=hunter2-bmc\nrunning with s3cret-redfish-pass today\n');
    await createNodeIn(t, 'nm', 'available', { driver_info: { console_log_file: live, redfish_password: 's3cret-redfish-pass' } });
    const event = await failDeploy('nm');
    const kept = /\(console log: (.+)\)$/.exec(event)![1]!;
    const text = await readFile(kept, 'utf8');
    expect(text).not.toContain('hunter2-bmc');
    expect(text).not.toContain('s3cret-redfish-pass');
    expect(text).toBe('kernel: ipmi_password=******\nrunning with ****** today\n');
  });

  it('records the failure without a link when the node names no console log or it cannot be read', async () => {
    await createNodeIn(t, 'n2', 'available');
    expect(await failDeploy('n2')).toBe('deploying -> deploy failed (fail): the agent never called back');
    await createNodeIn(t, 'n3', 'available', { driver_info: { console_log_file: path.join(dir, 'consoles', 'missing.log') } });
    expect(await failDeploy('n3')).toMatch(/^deploying -> deploy failed \(fail\): the agent never called back \(console log .*missing\.log cannot be read: .*ENOENT/);
  });

  describe('reads only regular files under conductor.console_log_allowed_paths', () => {
    async function refusal(name: string, file: string): Promise<{ event: string; lastError: string | null }> {
      await createNodeIn(t, name, 'available', { driver_info: { console_log_file: file } });
      const event = await failDeploy(name);
      return { event, lastError: (await t.store.nodes.get(name)).last_error };
    }

    it.each([
      ['a system file', '/etc/shadow', /is outside conductor\.console_log_allowed_paths/],
      ['a kernel interface', '/proc/self/environ', /is outside conductor\.console_log_allowed_paths/],
      ['a device', '/dev/zero', /is outside conductor\.console_log_allowed_paths/],
      ['a path climbing out with ..', 'consoles/../../../etc/passwd', /is outside conductor\.console_log_allowed_paths/],
    ])('refuses %s (%s), naming it in last_error and the history, and keeps nothing', async (_what, file, why) => {
      const source = file.startsWith('/') ? file : `${dir}/${file}`;
      const { event, lastError } = await refusal('r1', source);
      expect(lastError).toMatch(/^the agent never called back \(console log /);
      expect(lastError).toMatch(why);
      expect(event).toMatch(why);
      expect(await readdir(path.join(dir, 'kept')).catch(() => [])).toEqual([]);
    });

    it('refuses a symbolic link inside the directory that leads out of it', async () => {
      const link = path.join(dir, 'consoles', 'serial.log');
      await symlink('/etc/passwd', link);
      const { lastError } = await refusal('r2', link);
      expect(lastError).toMatch(/\/etc\/passwd is outside conductor\.console_log_allowed_paths/);
      expect(await readdir(path.join(dir, 'kept')).catch(() => [])).toEqual([]);
    });

    it('refuses a FIFO inside the directory without waiting on it', async () => {
      const fifo = path.join(dir, 'consoles', 'fifo.log');
      execFileSync('mkfifo', [fifo]);
      const { lastError } = await refusal('r3', fifo);
      expect(lastError).toMatch(/fifo\.log is refused: it is not a regular file/);
    });

    it('reads nothing when no directory is allowed', async () => {
      await t.close();
      t = await startTestConductor({ console_logs_dir: path.join(dir, 'kept') });
      const live = path.join(dir, 'consoles', 'serial.log');
      await writeFile(live, 'boot\n');
      const { lastError } = await refusal('r4', live);
      expect(lastError).toMatch(/is not read: conductor\.console_log_allowed_paths is empty/);
    });
  });

  it('reads a whole short file and cuts a long one after a newline', async () => {
    const f = path.join(dir, 'f');
    await writeFile(f, 'a\nb\n');
    expect((await readTail(f, 100)).toString()).toBe('a\nb\n');
    await writeFile(f, 'xxxx\nyyyy\nzz\n');
    expect((await readTail(f, 7)).toString()).toBe('zz\n');
    await writeFile(f, 'xxxx\nyyy\nzz\n');
    expect((await readTail(f, 7)).toString()).toBe('yyy\nzz\n');
  });
});
