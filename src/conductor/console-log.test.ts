import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
  t = await startTestConductor({ console_logs_dir: path.join(dir, 'kept') });
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
    const live = path.join(dir, 'serial.log');
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

  it('records the failure without a link when the node names no console log or it cannot be read', async () => {
    await createNodeIn(t, 'n2', 'available');
    expect(await failDeploy('n2')).toBe('deploying -> deploy failed (fail): the agent never called back');
    await createNodeIn(t, 'n3', 'available', { driver_info: { console_log_file: path.join(dir, 'missing.log') } });
    expect(await failDeploy('n3')).toBe('deploying -> deploy failed (fail): the agent never called back');
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
