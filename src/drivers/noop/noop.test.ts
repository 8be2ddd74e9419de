import { expect, it } from 'vitest';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { managementConformance } from '../interfaces/management.case.js';
import { networkConformance } from '../interfaces/network.case.js';
import { storageConformance } from '../interfaces/storage.case.js';
import { unsupportedConformance } from '../interfaces/unsupported.case.js';
import { noBios, noConsole, noFirmware, noInspect, noopManagement, noopNetwork, noopStorage, noRaid, noRescue, noVendor } from './noop.js';

networkConformance('noop', noopNetwork);
storageConformance('noop', noopStorage);
managementConformance('noop', noopManagement, { remembers: false, refusesOptional: true });
unsupportedConformance('no-bios', noBios, [(i, t) => i.applyConfiguration(t, []), (i, t) => i.factoryReset(t)]);
unsupportedConformance('no-console', noConsole, [(i, t) => i.startConsole(t), (i, t) => i.getConsole(t)]);
unsupportedConformance('no-firmware', noFirmware, [(i, t) => i.update(t, [])]);
unsupportedConformance('no-inspect', noInspect, [(i, t) => i.inspectHardware(t)]);
unsupportedConformance('no-raid', noRaid, [(i, t) => i.createConfiguration(t), (i, t) => i.deleteConfiguration(t), async (i, t) => i.validateRaidConfig(t, {})]);
unsupportedConformance('no-rescue', noRescue, [(i, t) => i.rescue(t), (i, t) => i.unrescue(t)]);
unsupportedConformance('no-vendor', noVendor, [(i, t) => i.call(t, 'x', 'POST', {})]);

it('noop management reports no boot device', async () => {
  expect(await noopManagement().getBootDevice(sampleTask())).toEqual({ boot_device: null, persistent: null });
});

it('noop management names the refused call as Ironic does', async () => {
  await expect(noopManagement().injectNmi?.(sampleTask({ driver: 'manual-management' }))).rejects.toMatchObject({
    code: 'UnsupportedDriverExtension',
    message: 'Driver manual-management does not support inject_nmi (disabled or not implemented).',
  });
});
