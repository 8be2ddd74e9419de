import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireBuildTools } from '../build/build-tools.js';
import { acpiPowerButtonScript, ramdiskInitScript, RAMDISK_MODULES_FILE, udhcpcScript } from './ramdisk-init.js';

/** busybox sh's verdict on a script's syntax (the ramdisk runs busybox sh). */
function syntaxOk(script: string): void {
  const { busybox } = requireBuildTools(['busybox']);
  execFileSync(busybox!, ['sh', '-n', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('ramdisk scripts', () => {
  it('are valid busybox sh', () => {
    for (const script of [ramdiskInitScript('6.1.0-57-amd64'), udhcpcScript(), acpiPowerButtonScript()]) {
      expect(script.startsWith('#!/bin/sh\n')).toBe(true);
      syntaxOk(script);
    }
  });

  it('/init loads the listed modules of its kernel, traps busybox poweroff/reboot/halt and powers off after the agent', () => {
    const init = ramdiskInitScript('6.1.0-57-amd64');
    expect(init).toContain('insmod "/lib/modules/6.1.0-57-amd64/$module"');
    expect(init).toContain(`done < ${RAMDISK_MODULES_FILE}`);
    expect(init).toMatch(/trap '.*' USR2/);
    expect(init).toMatch(/trap '.*reboot -f' TERM/);
    expect(init).toMatch(/node \/ingot-agent\.cjs &\nagent=\$!/);
    expect(init.trimEnd().split('\n').pop()).toBe('off "agent exited with status $rc"');
    // Template interpolation leaves no JavaScript behind.
    expect(init).not.toMatch(/undefined|\[object/);
  });

  it('the udhcpc hook sets address, route and resolver from busybox variables', () => {
    const s = udhcpcScript();
    expect(s).toContain('ip -4 addr add "$ip/${mask:-24}"');
    expect(s).toMatch(/ip -4 route replace default via "\$r" dev "\$interface" metric "\$metric"/);
    expect(s).toContain('echo "nameserver $s"');
  });
});
