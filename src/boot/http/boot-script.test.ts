import { describe, expect, it } from 'vitest';
import { DISPATCHER_REBOOT_TIMEOUT_MS, renderBootDispatcher } from './boot-script.js';

describe('boot.ipxe dispatcher', () => {
  it('waits three minutes (iPXE counts milliseconds) and then reboots, also when the prompt times out', () => {
    const lines = renderBootDispatcher().split('\n');
    expect(DISPATCHER_REBOOT_TIMEOUT_MS).toBe(180_000);
    const prompt = lines.indexOf('prompt --timeout 180000 || reboot');
    expect(prompt).toBeGreaterThan(lines.indexOf(':loop_done'));
    expect(lines[prompt + 1]).toBe('reboot');
  });
});
