import { describe, expect, it } from 'vitest';
import { powerConformance } from '../interfaces/power.case.js';
import { sampleTask } from '../interfaces/sample-task.test-support.js';
import type { SchedulerTime } from './bmc-scheduler.js';
import { fakeBmc } from './fake-bmc.test-support.js';
import { ipmiPower } from './power.js';

const node = { driver: 'ipmi', driver_info: { ipmi_address: '192.0.2.10', ipmi_username: 'admin', ipmi_password: 'pw' } };

function virtualTime(): SchedulerTime & { t: number } {
  const v = { t: 0, now: () => v.t, sleep: async (ms: number) => void (v.t += ms) };
  return v;
}

powerConformance('ipmitool over an in-memory BMC', () => ipmiPower({ client: fakeBmc(), time: virtualTime() }), node);

describe('ipmitool power', () => {
  it('waits until the BMC reports the target state', async () => {
    const bmc = fakeBmc();
    bmc.lag = 3;
    const time = virtualTime();
    const p = ipmiPower({ client: bmc, time });
    await p.setPowerState(sampleTask(node), 'power on');
    expect(bmc.power).toBe(true);
    expect(time.t).toBe(3000);
  });

  it('fails with PowerStateFailure naming the BMC, target and elapsed time when the state never comes', async () => {
    const bmc = fakeBmc();
    bmc.power = true;
    bmc.ignoreSoftOff = true;
    const p = ipmiPower({ client: bmc, time: virtualTime() });
    await expect(p.setPowerState(sampleTask(node), 'soft power off', 5)).rejects.toMatchObject({
      code: 'PowerStateFailure',
      message: expect.stringMatching(/BMC 192\.0\.2\.10:623 did not reach power off .* within 5 s: the power state was still power on after 5\.0 s/),
    });
  });

  it('soft reboot: ACPI off, wait for off, then on', async () => {
    const bmc = fakeBmc();
    bmc.power = true;
    await ipmiPower({ client: bmc, time: virtualTime() }).reboot(sampleTask(node), true);
    expect(bmc.log.filter((l) => l.startsWith('0/2:'))).toEqual(['0/2:5', '0/2:1']);
    expect(bmc.power).toBe(true);
  });

  it('hard reboot power cycles a machine that is on and powers on one that is off', async () => {
    const on = fakeBmc();
    on.power = true;
    await ipmiPower({ client: on, time: virtualTime() }).reboot(sampleTask(node), false);
    expect(on.log.filter((l) => l.startsWith('0/2:'))).toEqual(['0/2:2']);
    const off = fakeBmc();
    await ipmiPower({ client: off, time: virtualTime() }).reboot(sampleTask(node), false);
    expect(off.log.filter((l) => l.startsWith('0/2:'))).toEqual(['0/2:1']);
    expect(off.power).toBe(true);
  });

  it('rejects a state it cannot set', async () => {
    const p = ipmiPower({ client: fakeBmc(), time: virtualTime() });
    await expect(p.setPowerState(sampleTask(node), 'rebooting')).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });

  it('validates driver_info without talking to the BMC', () => {
    const bmc = fakeBmc();
    const p = ipmiPower({ client: bmc });
    expect(() => p.validate(sampleTask({ driver_info: {} }))).toThrow(expect.objectContaining({ code: 'MissingParameterValue' }));
    expect(bmc.log).toEqual([]);
  });

  it('stops waiting when the task is aborted', async () => {
    const bmc = fakeBmc();
    bmc.lag = 1000;
    const ac = new AbortController();
    const p = ipmiPower({ client: bmc, pollIntervalMs: 10 });
    const pending = p.setPowerState(sampleTask(node, ac.signal), 'power on');
    setTimeout(() => ac.abort(new Error('shutting down')), 30);
    await expect(pending).rejects.toThrow('shutting down');
  });
});
