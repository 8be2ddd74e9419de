import { describe, expect, it } from 'vitest';
import { managementConformance } from '../interfaces/management.case.js';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { fakeBmc } from './fake-bmc.test-support.js';
import { bmcAddress, injectNmi, ipmiManagement, isUefi } from './management.js';

const node = { driver: 'ipmi', driver_info: { ipmi_address: '192.0.2.10' } };

managementConformance('ipmitool over an in-memory BMC', () => ipmiManagement({ client: fakeBmc() }), { remembers: true, injectsNmi: true, nodeFields: node });

describe('ipmitool management', () => {
  it('sets boot flags: valid, persistent, the device selector, and EFI in UEFI mode', async () => {
    const bmc = fakeBmc();
    const m = ipmiManagement({ client: bmc });
    await m.setBootDevice(sampleTask(node), 'pxe', false);
    expect(bmc.bootFlags).toEqual([0x80, 0x04, 0, 0, 0]);
    await m.setBootDevice(sampleTask({ ...node, boot_mode: 'uefi' }), 'disk', true);
    expect(bmc.bootFlags).toEqual([0xe0, 0x08, 0, 0, 0]);
    await m.setBootDevice(sampleTask({ ...node, properties: { capabilities: 'boot_mode:uefi,secure_boot:false' } }), 'cdrom', false);
    expect(bmc.bootFlags).toEqual([0xa0, 0x14, 0, 0, 0]);
    expect(await m.getBootDevice(sampleTask(node))).toEqual({ boot_device: 'cdrom', persistent: false });
  });

  it('asks the BMC to keep the boot flags past its 60 s timeout, as Ironic does', async () => {
    const bmc = fakeBmc();
    await ipmiManagement({ client: bmc }).setBootDevice(sampleTask(node), 'pxe', true);
    expect(bmc.log).toEqual(['0/8:3,8', '0/8:5,c0,4,0,0,0']);
  });

  it('reads "no override" as no boot device', async () => {
    expect(await ipmiManagement({ client: fakeBmc() }).getBootDevice(sampleTask(node))).toEqual({ boot_device: null, persistent: false });
  });

  it('tells UEFI from legacy', () => {
    expect(isUefi(sampleTask({ boot_mode: 'bios', properties: { capabilities: 'boot_mode:uefi' } }).node)).toBe(false);
    expect(isUefi(sampleTask({ properties: { capabilities: { boot_mode: 'uefi' } } }).node)).toBe(true);
    expect(isUefi(sampleTask().node)).toBe(false);
  });

  it('injects an NMI and reads the BMC address (falling back to channel 1)', async () => {
    const bmc = fakeBmc();
    await injectNmi(sampleTask(node), bmc);
    expect(bmc.log).toEqual(['0/2:4']);
    expect(await bmcAddress(sampleTask(node), bmc)).toBe('192.0.2.10');
  });

  it('reports BMC refusals as DriverOperationError with the completion code named', async () => {
    const m = ipmiManagement({
      client: { request: async () => Promise.reject((await import('./errors.js')).completionError('192.0.2.10:623', 'Get System Boot Options', 0xd4)) },
    });
    await expect(m.getBootDevice(sampleTask(node))).rejects.toMatchObject({
      code: 'DriverOperationError',
      message: expect.stringContaining('0xD4 (insufficient privilege level)'),
    });
  });
});
