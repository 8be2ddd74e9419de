import { describe, expect, it, vi } from 'vitest';
import { biosConformance } from '../interfaces/bios.case.js';
import { bootConformance } from '../interfaces/boot.case.js';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import { consoleConformance } from '../interfaces/console.case.js';
import { deployConformance } from '../interfaces/deploy.case.js';
import { firmwareConformance } from '../interfaces/firmware.case.js';
import { inspectConformance } from '../interfaces/inspect.case.js';
import { managementConformance } from '../interfaces/management.case.js';
import { networkConformance } from '../interfaces/network.case.js';
import { powerConformance } from '../interfaces/power.case.js';
import { raidConformance } from '../interfaces/raid.case.js';
import { rescueConformance } from '../interfaces/rescue.case.js';
import { storageConformance } from '../interfaces/storage.case.js';
import { vendorConformance } from '../interfaces/vendor.case.js';
import { fakeBios, fakeConsole, fakeFirmware, fakeNetwork, fakeRaid, fakeStorage, fakeVendor } from './extras.js';
import { fakeManagement } from './management.js';
import { fakePower } from './power.js';
import { fakeBoot, fakeDeploy, fakeInspect, fakeRescue } from './provisioning.js';

powerConformance('fake', fakePower);
managementConformance('fake', fakeManagement, { remembers: true, injectsNmi: true });
bootConformance('fake', fakeBoot);
deployConformance('fake', fakeDeploy);
inspectConformance('fake', fakeInspect);
raidConformance('fake', fakeRaid);
biosConformance('fake', fakeBios);
consoleConformance('fake', fakeConsole);
vendorConformance('fake', fakeVendor);
rescueConformance('fake', fakeRescue);
networkConformance('fake', fakeNetwork);
storageConformance('fake', fakeStorage);
firmwareConformance('fake', fakeFirmware);

describe('fake specifics', () => {
  it('power waits fake_power_delay seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const task = sampleTask({ driver_info: { fake_power_delay: 0.15 } });
      let done = false;
      const pending = fakePower().setPowerState(task, 'power on').then(() => (done = true));
      await vi.advanceTimersByTimeAsync(149);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(done).toBe(true);
      expect(task.node.driver_internal_info.fake_power_state).toBe('power on');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a delay is cut short when the task is abandoned', async () => {
    const ctrl = new AbortController();
    const task = sampleTask({ driver_info: { fake_deploy_delay: 30 } }, ctrl.signal);
    const p = fakeDeploy().deploy(task);
    ctrl.abort(new Error('stopping'));
    await expect(p).rejects.toThrow('stopping');
  });

  it('validate rejects a malformed delay', () => {
    expect(() => fakePower().validate(sampleTask({ driver_info: { fake_power_delay: 'soon' } }))).toThrow(/fake_power_delay/);
  });

  it('power keeps its state in driver_internal_info, so an out-of-band change is visible', async () => {
    const task = sampleTask({ power_state: 'power on', driver_internal_info: { fake_power_state: 'power off' } });
    expect(await fakePower().getPowerState(task)).toBe('power off');
  });

  it('management counts NMIs and keeps the boot mode in driver_internal_info', async () => {
    const task = sampleTask({ driver_internal_info: { other: 1 } });
    const m = fakeManagement();
    expect(await m.getBootMode?.(task)).toBeNull();
    await m.injectNmi?.(task);
    await m.injectNmi?.(task);
    await m.setBootMode?.(task, 'uefi');
    expect(task.node.driver_internal_info).toEqual({ other: 1, fake_nmi_count: 2, fake_boot_mode: 'uefi' });
    expect(await m.getBootMode?.(task)).toBe('uefi');
  });

  it('bios apply_configuration merges settings by name', async () => {
    const task = sampleTask();
    await fakeBios().applyConfiguration(task, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    await fakeBios().applyConfiguration(task, [{ name: 'A', value: '3' }]);
    expect(task.node.driver_internal_info['fake_bios_settings']).toEqual({ A: '3', B: '2' });
  });

  it('vendor first_method answers whether bar is baz', async () => {
    expect(await fakeVendor().call(sampleTask(), 'first_method', 'POST', { bar: 'baz' })).toBe(true);
    expect(await fakeVendor().call(sampleTask(), 'first_method', 'POST', { bar: 'x' })).toBe(false);
    await expect(fakeVendor().call(sampleTask(), 'first_method', 'POST', {})).rejects.toMatchObject({ code: 'MissingParameterValue' });
  });
});
