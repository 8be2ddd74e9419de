import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireBuildTools } from '../build/build-tools.js';
import { parseTestImageConsole, syslinuxConfig, testImageInitScript, testImagePowerButtonScript } from './test-image-init.js';

describe('test image scripts', () => {
  it('are valid busybox sh', () => {
    const { busybox } = requireBuildTools(['busybox']);
    for (const script of [testImageInitScript('6.1.0-57-amd64'), testImagePowerButtonScript()]) {
      execFileSync(busybox!, ['sh', '-n', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    }
  });

  it('reads the markers and values from a console log', () => {
    const log = 'SeaBIOS\r\n[    4.1] Run /init\r\nINGOT-TEST-IMAGE-BOOTED\r\nINGOT-CONFIG-DRIVE=/dev/vda2\r\nINGOT-HOSTNAME=node-1.example\r\nINGOT-UUID=1be2\r\nINGOT-TEST-IMAGE-DONE\r\n';
    expect(parseTestImageConsole(log)).toEqual({ booted: true, done: true, configDrive: '/dev/vda2', hostname: 'node-1.example', uuid: '1be2' });
    expect(parseTestImageConsole('echo INGOT-TEST-IMAGE-BOOTED\n')).toMatchObject({ booted: false, hostname: null });
  });

  it('boots the kernel with a serial console and no_timer_check, staying up only when asked', () => {
    expect(syslinuxConfig({ stay: false })).toMatch(/^ {2}APPEND console=ttyS0,115200 no_timer_check pci=noacpi panic=10$/m);
    expect(syslinuxConfig({ stay: true })).toMatch(/APPEND .* ingot\.stay$/m);
  });
});
