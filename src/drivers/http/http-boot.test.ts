import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../domain/node.js';
import { bootConformance } from '../interfaces/boot.case.js';

import { withDeployImages } from '../network-boot/conformance.test-support.js';
import { DEPLOY_INFO, fakeEnv, MAC_PXE, TOKEN, useFakeEnv, deployReadyTask } from '../network-boot/env.test-support.js';
import { statedBootModes } from './boot-mode.js';
import { httpBoot, HTTP_FLAVOR } from './http-boot.js';
import { grubMasterConfigPath, httpConfigPaths } from './http-config.js';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const DEV = '(http,10.9.0.1:8088)';
const CMDLINE = 'selinux=0 troubleshoot=0 text nofb vga=normal ipa-api-url=http://10.9.0.1:6385 BOOTIF=01-52-54-00-aa-bb-01 coreos.configdrive=0';

async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  return out.sort();
}

const absent = (p: Promise<string>) => p.catch(() => 'absent');

describe('http boot interface', () => {
  const env = useFakeEnv();
  const task = (over: Partial<Node> = {}) => deployReadyTask(env, over);

  it('writes the GRUB config of each PXE-enabled MAC with HTTP kernel and initrd, line by line, and the master config', async () => {
    await httpBoot(env).prepareRamdisk(task(), 'deploy');
    const p = httpConfigPaths(env.config, MAC_PXE);
    expect(p).toEqual({
      grub: path.join(env.config.http_root_dir, 'grub.cfg-01-52-54-00-aa-bb-01'),
      grubConf: path.join(env.config.http_root_dir, '52:54:00:aa:bb:01.conf'),
    });
    const grub = await env.read(p.grubConf);
    expect(grub.split('\n')).toEqual([
      'set default=deploy',
      'set timeout=5',
      'set hidden_timeout_quiet=false',
      '',
      'menuentry "deploy" {',
      `    linux ${DEV}/${UUID}/deploy_kernel ${CMDLINE} boot_server=10.9.0.1`,
      `    initrd ${DEV}/${UUID}/deploy_ramdisk`,
      '}',
      '',
    ]);
    expect(await env.read(p.grub)).toBe(grub);
    expect((await env.read(grubMasterConfigPath(env.config))).split('\n')).toEqual([
      '# Written by Ingot (http boot interface): boot the config of the MAC this machine booted from.',
      `configfile ${DEV}/\${net_default_mac}.conf`,
      '',
    ]);
    expect(await listAll(env.config.http_root_dir)).toEqual(
      ['52:54:00:aa:bb:01.conf', `${UUID}/deploy_kernel`, `${UUID}/deploy_ramdisk`, 'grub.cfg', 'grub.cfg-01-52-54-00-aa-bb-01'].sort(),
    );
    expect(await listAll(env.config.tftp_root_dir)).toEqual([]);
    expect(await env.read(path.join(env.config.http_root_dir, UUID, 'deploy_kernel'))).toBe(env.bytesOf(DEPLOY_INFO.deploy_kernel));
    for (const f of await listAll(env.config.http_root_dir)) expect(await env.read(path.join(env.config.http_root_dir, f))).not.toContain(TOKEN);
  });

  it('sends UEFI HTTP boot firmware the loader URL and nothing for PXE, for the PXE-enabled ports', async () => {
    await httpBoot(env).prepareRamdisk(task(), 'inspect');
    expect(env.dhcpInputs).toEqual([{ tftpServer: '', biosBootFile: '', httpBootUrl: 'http://10.9.0.1:8088/bootx64.efi' }]);
    expect(env.dhcpCalls.map((c) => [c.op, c.macs])).toEqual([['update', [MAC_PXE]]]);
    expect(await env.read(httpConfigPaths(env.config, MAC_PXE).grubConf)).toContain('ipa-inspection-callback-url=http://10.9.0.1:6385/v1/continue_inspection');
  });

  it('names the HTTP root by a base path, an IPv6 host and the default port as GRUB does', async () => {
    const v6 = await fakeEnv({ http_url: 'http://[fd00::1]/boot/', uefi_http_bootfile_name: 'EFI/BOOT/grubx64.efi' });
    try {
      await httpBoot(v6).prepareRamdisk(task(), 'deploy');
      const grub = (await v6.read(httpConfigPaths(v6.config, MAC_PXE).grubConf)).split('\n');
      expect(grub[5]).toBe(`    linux (http,[fd00::1])/boot/${UUID}/deploy_kernel ${CMDLINE} boot_server=fd00::1`);
      expect(grub[6]).toBe(`    initrd (http,[fd00::1])/boot/${UUID}/deploy_ramdisk`);
      expect(await v6.read(grubMasterConfigPath(v6.config))).toContain('configfile (http,[fd00::1])/boot/${net_default_mac}.conf\n');
      expect(v6.dhcpInputs[0]?.httpBootUrl).toBe('http://[fd00::1]/boot/EFI/BOOT/grubx64.efi');
    } finally {
      await v6.cleanup();
    }
  });

  it('cleans up the MAC configs, the node files and the DHCP options, keeping the shared master config', async () => {
    const b = httpBoot(env);
    await b.prepareRamdisk(task(), 'deploy');
    await b.cleanUpRamdisk(task(), 'deploy');
    expect(await listAll(env.config.http_root_dir)).toEqual(['grub.cfg']);
    expect(env.dhcpCalls.at(-1)).toEqual({ op: 'clean', macs: env.portList.map((port) => port.address) });
  });

  it('boots the instance of a ramdisk deploy over HTTP and a local instance from disk', async () => {
    const b = httpBoot(env);
    const ramdisk = task({ deploy_interface: 'ramdisk', instance_info: { kernel: 'http://img/k', ramdisk: 'http://img/r' } });
    await b.prepareInstance(ramdisk);
    const lines = (await env.read(httpConfigPaths(env.config, MAC_PXE).grubConf)).split('\n');
    expect(lines[0]).toBe('set default=boot_ramdisk');
    expect(lines[5]).toBe(`    linux ${DEV}/${UUID}/kernel root=/dev/ram0 text nofb vga=normal BOOTIF=01-52-54-00-aa-bb-01 boot_server=10.9.0.1`);
    expect(env.bootDevices).toEqual([{ device: 'pxe', persistent: true }]);

    await b.prepareInstance(task());
    expect(await absent(env.read(httpConfigPaths(env.config, MAC_PXE).grubConf))).toBe('absent');
    expect(env.bootDevices.at(-1)).toEqual({ device: 'disk', persistent: true });
  });

  it.each([
    [{ boot_mode: 'bios' }, 'boot_mode: boot_mode "bios"'],
    [{ properties: { capabilities: 'cpu_vt:true,boot_mode:bios' } }, 'properties.capabilities: boot_mode "bios"'],
    [{ properties: { capabilities: { boot_mode: 'Legacy' } } }, 'properties.capabilities: boot_mode "legacy"'],
    [{ instance_info: { capabilities: '{"boot_mode": "bios"}' } }, 'instance_info.capabilities: boot_mode "bios"'],
    [{ instance_info: { deploy_boot_mode: 'bios' }, boot_mode: 'uefi' }, 'instance_info.deploy_boot_mode: boot_mode "bios"'],
  ] as const)('refuses a node set to legacy BIOS (%j) before touching anything', async (over, where) => {
    const b = httpBoot(env);
    const expected = { code: 'InvalidParameterValue', message: expect.stringContaining(`legacy BIOS mode (${where})`) };
    await expect(b.validate(task(over))).rejects.toMatchObject(expected);
    await expect(b.prepareRamdisk(task(over), 'deploy')).rejects.toMatchObject(expected);
    await expect(b.validate(task(over))).rejects.toThrow(/use the pxe or ipxe boot interface/);
    expect(env.dhcpCalls).toEqual([]);
    expect(await listAll(env.config.http_root_dir)).toEqual([]);
  });

  it('accepts UEFI and an unstated boot mode, and still cleans up and boots a BIOS node locally', async () => {
    const b = httpBoot(env);
    await b.validate(task({ boot_mode: 'uefi', properties: { capabilities: 'boot_mode:uefi' } }));
    await b.validate(task());
    const bios = task({ boot_mode: 'bios' });
    await b.cleanUpRamdisk(bios, 'deploy');
    await b.prepareInstance(bios);
    expect(env.bootDevices).toEqual([{ device: 'disk', persistent: true }]);
  });

  it('lists every stated boot mode in precedence order', () => {
    const node = task({ boot_mode: 'UEFI', properties: { capabilities: 'boot_mode:uefi' }, instance_info: { capabilities: { boot_mode: 'bios' } } }).node;
    expect(statedBootModes(node)).toEqual([
      { field: 'instance_info.capabilities', mode: 'bios' },
      { field: 'properties.capabilities', mode: 'uefi' },
      { field: 'boot_mode', mode: 'uefi' },
    ]);
  });

  it.each([
    [{ http_url: '' }, 'The http boot interface needs [boot] http_url to be set.'],
    [{ uefi_http_bootfile_name: ' ' }, 'The http boot interface needs [boot] uefi_http_bootfile_name to be set.'],
    [{ http_url: 'https://10.9.0.1:8443' }, 'needs an http:// [boot] http_url'],
    [{ http_url: 'http://10.9.0.1:8088/?x=1' }, 'without credentials, query or fragment'],
    [{ http_url: 'http://10.9.0.1:8088/boot$x' }, 'characters GRUB would misread'],
    [{ http_url: 'not a url' }, 'to be a URL'],
  ] as const)('refuses the configuration %j with ConfigInvalid', async (over, message) => {
    const bad = await fakeEnv(over);
    try {
      await expect(httpBoot(bad).validate(task())).rejects.toMatchObject({ code: 'ConfigInvalid', message: expect.stringContaining(message) });
      await expect(httpBoot(bad).prepareRamdisk(task(), 'deploy')).rejects.toMatchObject({ code: 'ConfigInvalid' });
    } finally {
      await bad.cleanup();
    }
  });

  it('fails every operation with ConfigInvalid without a network boot environment', async () => {
    await expect(httpBoot(null).prepareRamdisk(task(), 'deploy')).rejects.toMatchObject({ code: 'ConfigInvalid' });
    expect(HTTP_FLAVOR.name).toBe('http');
  });
});

describe('http conformance', () => {
  const env = useFakeEnv('block');
  bootConformance('http', () => withDeployImages(httpBoot(env), env));
});
