import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../domain/node.js';
import { bootConformance } from '../interfaces/boot.case.js';

import { withDeployImages } from '../network-boot/conformance.test-support.js';
import { DEPLOY_INFO, fakeEnv, MAC_PXE, TOKEN, useFakeEnv, deployReadyTask } from '../network-boot/env.test-support.js';
import { ipxeBoot, ipxeScriptPath } from './ipxe-boot.js';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

describe('ipxe boot interface', () => {
  const env = useFakeEnv();
  const task = (over: Partial<Node> = {}) => deployReadyTask(env, over);

  it('writes one iPXE script per PXE-enabled MAC with HTTP kernel and initrd URLs, line by line', async () => {
    await ipxeBoot(env).prepareRamdisk(task(), 'deploy');
    const file = ipxeScriptPath(env.config, MAC_PXE);
    expect(file).toBe(path.join(env.config.http_root_dir, 'pxelinux.cfg', '52-54-00-aa-bb-01'));
    const script = await env.read(file);
    expect(script.split('\n')).toEqual([
      '#!ipxe',
      '',
      'goto deploy',
      '',
      ':deploy',
      'imgfree',
      `kernel http://10.9.0.1:8088/${UUID}/deploy_kernel selinux=0 troubleshoot=0 text nofb vga=normal ipa-api-url=http://10.9.0.1:6385 BOOTIF=01-52-54-00-aa-bb-01 coreos.configdrive=0 initrd=deploy_ramdisk || goto deploy`,
      `initrd http://10.9.0.1:8088/${UUID}/deploy_ramdisk || goto deploy`,
      'boot',
      '',
    ]);
    expect(script).not.toContain(TOKEN);
    expect(await env.read(path.join(env.config.http_root_dir, UUID, 'deploy_ramdisk'))).toBe(env.bytesOf(DEPLOY_INFO.deploy_ramdisk));
    expect(await env.read(ipxeScriptPath(env.config, '52:54:00:aa:bb:02')).catch(() => 'absent')).toBe('absent');
  });

  it('sends iPXE clients to boot.ipxe and chainloads iPXE for other firmware', async () => {
    await ipxeBoot(env).prepareRamdisk(task(), 'deploy');
    expect(env.dhcpInputs).toEqual([
      { tftpServer: '10.9.0.1', biosBootFile: 'undionly.kpxe', uefiBootFile: 'snponly.efi', ipxeScriptUrl: 'http://10.9.0.1:8088/boot.ipxe' },
    ]);
    expect(env.dhcpCalls[0]?.macs).toEqual([MAC_PXE]);
  });

  it('adds iPXE download timeouts in milliseconds when configured', async () => {
    const slow = await fakeEnv({ ipxe_timeout_s: 30 });
    try {
      await ipxeBoot(slow).prepareRamdisk(task(), 'deploy');
      const lines = (await slow.read(ipxeScriptPath(slow.config, MAC_PXE))).split('\n');
      expect(lines[6]).toMatch(/^kernel --timeout 30000 http:\/\//);
      expect(lines[7]).toMatch(/^initrd --timeout 30000 http:\/\//);
    } finally {
      await slow.cleanup();
    }
  });

  it('cleans up the script, the HTTP files and the DHCP options', async () => {
    const b = ipxeBoot(env);
    await b.prepareRamdisk(task(), 'deploy');
    await b.cleanUpRamdisk(task(), 'deploy');
    expect(await env.read(ipxeScriptPath(env.config, MAC_PXE)).catch(() => 'absent')).toBe('absent');
    expect(await env.read(path.join(env.config.http_root_dir, UUID, 'deploy_kernel')).catch(() => 'absent')).toBe('absent');
    expect(env.dhcpCalls.at(-1)?.op).toBe('clean');
  });

  it('needs http_url and the HTTP root', async () => {
    const bad = await fakeEnv({ http_url: '' });
    try {
      await expect(ipxeBoot(bad).prepareRamdisk(task(), 'deploy')).rejects.toMatchObject({ code: 'ConfigInvalid', message: 'The ipxe boot interface needs [boot] http_url to be set.' });
    } finally {
      await bad.cleanup();
    }
  });
});

describe('ipxe conformance', () => {
  const env = useFakeEnv('block');
  bootConformance('ipxe', () => withDeployImages(ipxeBoot(env), env));
});
