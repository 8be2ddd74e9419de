import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../domain/node.js';
import { bootConformance } from '../interfaces/boot.case.js';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { withDeployImages } from '../network-boot/conformance.test-support.js';
import { DEPLOY_INFO, fakeEnv, MAC_OTHER, MAC_PXE, TOKEN, useFakeEnv, deployReadyTask } from '../network-boot/env.test-support.js';
import { pxeBoot, pxeConfigPaths } from './pxe-boot.js';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  return out.sort();
}

describe('pxe boot interface', () => {
  const env = useFakeEnv();
  const deployTask = (over: Partial<Node> = {}) => deployReadyTask(env, over);

  it('prepareRamdisk writes PXELINUX and GRUB configs for the PXE-enabled port only, line by line', async () => {
    await pxeBoot(env).prepareRamdisk(deployTask(), 'deploy');
    const p = pxeConfigPaths(env.config, MAC_PXE);
    expect(p.pxelinux).toBe(path.join(env.config.tftp_root_dir, 'pxelinux.cfg', '01-52-54-00-aa-bb-01'));
    expect((await env.read(p.pxelinux)).split('\n')).toEqual([
      'default deploy',
      '',
      'label deploy',
      `kernel ${UUID}/deploy_kernel`,
      `append initrd=${UUID}/deploy_ramdisk selinux=0 troubleshoot=0 text nofb vga=normal ipa-api-url=http://10.9.0.1:6385 BOOTIF=01-52-54-00-aa-bb-01 coreos.configdrive=0`,
      '',
    ]);
    const grub = (await env.read(p.grub)).split('\n');
    expect(grub).toEqual([
      'set default=deploy',
      'set timeout=5',
      'set hidden_timeout_quiet=false',
      '',
      'menuentry "deploy" {',
      `    linux /${UUID}/deploy_kernel selinux=0 troubleshoot=0 text nofb vga=normal ipa-api-url=http://10.9.0.1:6385 BOOTIF=01-52-54-00-aa-bb-01 coreos.configdrive=0 boot_server=10.9.0.1`,
      `    initrd /${UUID}/deploy_ramdisk`,
      '}',
      '',
    ]);
    expect(path.basename(p.grubConf)).toBe('52:54:00:aa:bb:01.conf');
    expect(await env.read(p.grubConf)).toBe(grub.join('\n'));
    expect(await listAll(env.config.tftp_root_dir)).toEqual(
      ['52:54:00:aa:bb:01.conf', `${UUID}/deploy_kernel`, `${UUID}/deploy_ramdisk`, 'grub.cfg-01-52-54-00-aa-bb-01', 'pxelinux.cfg/01-52-54-00-aa-bb-01'].sort(),
    );
    expect(await env.read(path.join(env.config.tftp_root_dir, UUID, 'deploy_kernel'))).toBe(env.bytesOf(DEPLOY_INFO.deploy_kernel));
    expect(await env.read(path.join(env.config.tftp_root_dir, UUID, 'deploy_ramdisk'))).toBe(env.bytesOf(DEPLOY_INFO.deploy_ramdisk));
    expect(env.linked).toEqual([`${UUID}.deploy_kernel`, `${UUID}.deploy_ramdisk`]);
  });

  it('never writes the agent token anywhere', async () => {
    const b = pxeBoot(env);
    await b.prepareRamdisk(deployTask(), 'deploy');
    for (const f of await listAll(env.config.tftp_root_dir)) {
      const text = await env.read(path.join(env.config.tftp_root_dir, f));
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/token/i);
    }
    expect(JSON.stringify(env.dhcpCalls)).not.toContain(TOKEN);
  });

  it('hands the DHCP provider the PXE loaders and TFTP server for the PXE-enabled ports', async () => {
    await pxeBoot(env).prepareRamdisk(deployTask(), 'clean');
    expect(env.dhcpInputs).toEqual([{ tftpServer: '10.9.0.1', biosBootFile: 'pxelinux.0', uefiBootFile: 'bootx64.efi' }]);
    expect(env.dhcpCalls).toEqual([{ op: 'update', macs: [MAC_PXE], options: [{ option: 67, value: 'pxelinux.0' }] }]);
  });

  it('adds the inspection callback for inspect, the rescue images for rescue, and driver_info kernel_append_params', async () => {
    const b = pxeBoot(env);
    await b.prepareRamdisk(deployTask({ driver_info: { ...DEPLOY_INFO, kernel_append_params: 'console=ttyS0' } }), 'inspect');
    const line = (await env.read(pxeConfigPaths(env.config, MAC_PXE).pxelinux)).split('\n')[4];
    expect(line).toBe(
      `append initrd=${UUID}/deploy_ramdisk selinux=0 troubleshoot=0 text console=ttyS0 ipa-api-url=http://10.9.0.1:6385 ipa-inspection-callback-url=http://10.9.0.1:6385/v1/continue_inspection BOOTIF=01-52-54-00-aa-bb-01 coreos.configdrive=0`,
    );
    await expect(b.prepareRamdisk(deployTask(), 'rescue')).rejects.toMatchObject({
      code: 'MissingParameterValue',
      message: 'Some parameters were missing in node\'s driver_info. Missing are: ["rescue_kernel","rescue_ramdisk"]',
    });
    await b.prepareRamdisk(deployTask({ driver_info: { ...DEPLOY_INFO, rescue_kernel: 'http://x/r.k', rescue_ramdisk: 'http://x/r.i' } }), 'rescue');
    expect((await env.read(pxeConfigPaths(env.config, MAC_PXE).pxelinux)).split('\n')[3]).toBe(`kernel ${UUID}/rescue_kernel`);
  });

  it('cleanUpRamdisk removes the configs, the node files and the DHCP options of every port', async () => {
    const b = pxeBoot(env);
    await b.prepareRamdisk(deployTask(), 'deploy');
    await b.cleanUpRamdisk(deployTask(), 'deploy');
    expect(await listAll(env.config.tftp_root_dir)).toEqual([]);
    await expect(stat(path.join(env.config.tftp_root_dir, UUID))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(env.released).toEqual([`${UUID}.deploy_kernel`, `${UUID}.deploy_ramdisk`]);
    expect(env.dhcpCalls.at(-1)).toEqual({ op: 'clean', macs: [MAC_PXE, MAC_OTHER] });
  });

  it('prepareInstance for a local boot removes network boot files and sets disk persistently', async () => {
    const b = pxeBoot(env);
    await b.prepareRamdisk(deployTask(), 'deploy');
    await b.cleanUpRamdisk(deployTask(), 'deploy');
    await b.prepareInstance(deployTask({ provision_state: 'deploying' }));
    expect(await listAll(env.config.tftp_root_dir)).toEqual([]);
    expect(env.bootDevices).toEqual([{ device: 'disk', persistent: true }]);
    await b.prepareInstance(deployTask({ provision_state: 'deploying', driver_info: { ...DEPLOY_INFO, force_persistent_boot_device: 'Never' } }));
    expect(env.bootDevices.at(-1)).toEqual({ device: 'disk', persistent: false });
    await b.prepareInstance(deployTask({ provision_state: 'active' }));
    expect(env.bootDevices).toHaveLength(2);
  });

  it('prepareInstance for a ramdisk deploy boots the instance kernel and ramdisk from the network', async () => {
    const b = pxeBoot(env);
    const task = deployTask({
      provision_state: 'deploying',
      deploy_interface: 'ramdisk',
      instance_info: { kernel: 'http://img/vmlinuz', ramdisk: 'http://img/initrd', ramdisk_kernel_arguments: 'console=ttyS0 quiet' },
    });
    await b.prepareInstance(task);
    expect((await env.read(pxeConfigPaths(env.config, MAC_PXE).pxelinux)).split('\n')).toEqual([
      'default boot_ramdisk',
      '',
      'label boot_ramdisk',
      `kernel ${UUID}/kernel`,
      `append initrd=${UUID}/ramdisk root=/dev/ram0 text nofb vga=normal console=ttyS0 quiet BOOTIF=01-52-54-00-aa-bb-01`,
      '',
    ]);
    expect(await env.read(path.join(env.config.tftp_root_dir, UUID, 'kernel'))).toBe(env.bytesOf('http://img/vmlinuz'));
    expect(env.bootDevices).toEqual([{ device: 'pxe', persistent: true }]);
    expect(env.dhcpCalls.at(-1)?.op).toBe('update');
    await b.cleanUpInstance(task);
    expect(await listAll(env.config.tftp_root_dir)).toEqual([]);
    expect(env.released).toEqual([`${UUID}.kernel`, `${UUID}.ramdisk`]);
    // boot_option from instance_info.capabilities (JSON text) works the same.
    await b.prepareInstance(deployTask({ provision_state: 'deploying', instance_info: { capabilities: '{"boot_option": "ramdisk"}', kernel: 'http://img/k', ramdisk: 'http://img/r' } }));
    expect(env.bootDevices.at(-1)).toEqual({ device: 'pxe', persistent: true });
    await expect(b.prepareInstance(deployTask({ deploy_interface: 'ramdisk', instance_info: {} }))).rejects.toMatchObject({
      code: 'MissingParameterValue',
      message: 'Some parameters were missing in node\'s instance_info. Missing are: ["kernel","ramdisk"]',
    });
  });

  it('validate names missing driver_info keys, needs a PXE-enabled port and the configuration', async () => {
    const b = pxeBoot(env);
    await expect(b.validate(sampleTask())).rejects.toMatchObject({
      code: 'MissingParameterValue',
      message: 'Some parameters were missing in node\'s driver_info. Missing are: ["deploy_kernel","deploy_ramdisk"]',
    });
    await expect(b.validate(sampleTask({ driver_info: { deploy_kernel: 'http://k' } }))).rejects.toThrow('Missing are: ["deploy_ramdisk"]');
    await expect(b.validate(sampleTask({ driver_info: { ...DEPLOY_INFO, deploy_kernel: 'ftp://k' } }))).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await expect(b.validate(deployTask())).resolves.toBeUndefined();
    env.portList = env.portList.map((p) => ({ ...p, pxe_enabled: false }));
    await expect(b.validate(deployTask())).rejects.toMatchObject({ code: 'InvalidParameterValue', message: expect.stringContaining('has no PXE-enabled port') });
    await expect(pxeBoot(null).validate(deployTask())).rejects.toMatchObject({ code: 'ConfigInvalid' });
    const noTftp = await fakeEnv({ tftp_server: '' });
    try {
      await expect(pxeBoot(noTftp).prepareRamdisk(deployTask(), 'deploy')).rejects.toMatchObject({ code: 'ConfigInvalid', message: 'The pxe boot interface needs [boot] tftp_server to be set.' });
    } finally {
      await noTftp.cleanup();
    }
  });

  it('refuses kernel parameters that would add config lines, and a missing api_url', async () => {
    const b = pxeBoot(env);
    await expect(b.prepareRamdisk(deployTask({ driver_info: { ...DEPLOY_INFO, kernel_append_params: 'a\nlabel evil' } }), 'deploy')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    const noApi = await fakeEnv({ api_url: '' });
    try {
      await expect(pxeBoot(noApi).prepareRamdisk(deployTask(), 'deploy')).rejects.toMatchObject({ code: 'ConfigInvalid', message: expect.stringContaining('boot.api_url') });
    } finally {
      await noApi.cleanup();
    }
  });

  it('documents its driver_info keys', () => {
    const props = pxeBoot(null).properties;
    expect(props.deploy_kernel).toMatch(/Required/);
    expect(props.deploy_ramdisk).toMatch(/Required/);
  });
});

describe('pxe conformance', () => {
  const env = useFakeEnv('block');
  bootConformance('pxe', () => withDeployImages(pxeBoot(env), env));
});
