import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerIpxePrompts, IPXE_PROMPT } from './ipxe-prompt.js';

/** A watch as the tests see it: the key presses, and how often it asked whether QEMU still runs (once per poll). */
interface Watched {
  presses: number[];
  polls: () => number;
}

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
    vi.useRealTimers();
    for (const stop of stops) stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const watch = (from: number, opts: { running?: () => boolean; timeoutMs?: number } = {}): Watched => {
    const presses: number[] = [];
    let polls = 0;
    const running = opts.running ?? (() => true);
    stops.push(answerIpxePrompts({ serialLog: log, from, pressKey: async () => presses.push(presses.length), running: () => (polls++, running()), timeoutMs: opts.timeoutMs, pollMs: 10 }));
    return { presses, polls: () => polls };
  };

  /**
   * Waits until `w` has read all that is in the log now: a poll that began after this call has ended
   * once the one after it begins.
   */
  const readAll = async (w: Watched) => {
    const now = w.polls();
    await expect.poll(() => w.polls(), { timeout: 5000, interval: 5 }).toBeGreaterThanOrEqual(now + 2);
  };

  it('presses a key once the prompt of this boot shows, also when it arrives in pieces', async () => {
    writeFileSync(log, `earlier boot\r\n${IPXE_PROMPT}...\r\n`); // a previous boot's prompt: before `from`
    const w = watch(Buffer.byteLength(`earlier boot\r\n${IPXE_PROMPT}...\r\n`));
    appendFileSync(log, 'SeaBIOS (version 1.16.2)\r\niPXE initialising devices...ok\r\nPress Ctrl-B for the ');
    await readAll(w);
    expect(w.presses).toHaveLength(0);
    appendFileSync(log, 'iPXE command line...');
    await expect.poll(() => w.presses.length, { timeout: 2000 }).toBe(1);
    appendFileSync(log, '\r\nConfiguring (net0 52:54:00:12:34:56)... ok\r\n');
    await readAll(w);
    expect(w.presses).toHaveLength(1);
  });

  it('answers every prompt of one boot (one per NIC ROM the boot falls through)', async () => {
    writeFileSync(log, '');
    const w = watch(0);
    appendFileSync(log, `${IPXE_PROMPT}...\r\nNo configuration methods succeeded\r\n${IPXE_PROMPT}...`);
    await expect.poll(() => w.presses.length, { timeout: 2000 }).toBe(2);
  });

  it('waits for a log that does not exist yet, and never presses without a prompt', async () => {
    const w = watch(0);
    await readAll(w);
    writeFileSync(log, 'Booting from Hard Disk...\r\nLinux version 6.1.0\r\n');
    await readAll(w);
    expect(w.presses).toHaveLength(0);
  });

  it('stops when QEMU is gone or the time is up', async () => {
    // The watch's deadline runs on the virtual clock; its polls and reads stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    writeFileSync(log, '');
    let running = true;
    const gone = watch(0, { running: () => running });
    const late = watch(0, { timeoutMs: 20 });
    const control = watch(0);
    running = false;
    vi.advanceTimersByTime(21);
    // The next poll of each ends its watch: it asks, hears that QEMU is gone or sees the time is up, and stops.
    const [g, l] = [gone.polls(), late.polls()];
    await expect.poll(() => gone.polls() > g && late.polls() > l, { timeout: 5000, interval: 5 }).toBe(true);
    appendFileSync(log, `${IPXE_PROMPT}...`);
    // A watch still running answers that prompt; the two that stopped do not, and poll no more.
    await expect.poll(() => control.presses.length, { timeout: 2000 }).toBe(1);
    expect(gone.presses).toHaveLength(0);
    expect(late.presses).toHaveLength(0);
    expect([gone.polls(), late.polls()]).toEqual([g + 1, l + 1]);
  });
});
