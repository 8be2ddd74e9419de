import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerIpxePrompts, IPXE_PROMPT } from './ipxe-prompt.js';

describe('answerIpxePrompts', () => {
  let dir: string;
  let log: string;
  let stops: Array<() => void>;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ingot-ipxe-prompt-'));
    log = path.join(dir, 'serial.log');
    stops = [];
  });
  afterEach(() => {
    for (const stop of stops) stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const watch = (from: number, opts: { running?: () => boolean; timeoutMs?: number } = {}) => {
    const presses: number[] = [];
    stops.push(answerIpxePrompts({ serialLog: log, from, pressKey: async () => presses.push(Date.now()), running: opts.running ?? (() => true), timeoutMs: opts.timeoutMs, pollMs: 10 }));
    return presses;
  };

  it('presses a key once the prompt of this boot shows, also when it arrives in pieces', async () => {
    writeFileSync(log, `earlier boot\r\n${IPXE_PROMPT}...\r\n`); // a previous boot's prompt: before `from`
    const presses = watch(Buffer.byteLength(`earlier boot\r\n${IPXE_PROMPT}...\r\n`));
    appendFileSync(log, 'SeaBIOS (version 1.16.2)\r\niPXE initialising devices...ok\r\nPress Ctrl-B for the ');
    await sleep(60);
    expect(presses).toHaveLength(0);
    appendFileSync(log, 'iPXE command line...');
    await expect.poll(() => presses.length, { timeout: 2000 }).toBe(1);
    appendFileSync(log, '\r\nConfiguring (net0 52:54:00:12:34:56)... ok\r\n');
    await sleep(60);
    expect(presses).toHaveLength(1);
  });

  it('answers every prompt of one boot (one per NIC ROM the boot falls through)', async () => {
    writeFileSync(log, '');
    const presses = watch(0);
    appendFileSync(log, `${IPXE_PROMPT}...\r\nNo configuration methods succeeded\r\n${IPXE_PROMPT}...`);
    await expect.poll(() => presses.length, { timeout: 2000 }).toBe(2);
  });

  it('waits for a log that does not exist yet, and never presses without a prompt', async () => {
    const presses = watch(0);
    await sleep(40);
    writeFileSync(log, 'Booting from Hard Disk...\r\nLinux version 6.1.0\r\n');
    await sleep(60);
    expect(presses).toHaveLength(0);
  });

  it('stops when QEMU is gone or the time is up', async () => {
    writeFileSync(log, '');
    let running = true;
    const gone = watch(0, { running: () => running });
    const late = watch(0, { timeoutMs: 20 });
    running = false;
    await sleep(60);
    appendFileSync(log, `${IPXE_PROMPT}...`);
    await sleep(60);
    expect(gone).toHaveLength(0);
    expect(late).toHaveLength(0);
  });
});
