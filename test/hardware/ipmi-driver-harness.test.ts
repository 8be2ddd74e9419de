/** The ipmi_sim harness checked with a real peer: ipmitool over lanplus, cipher suite 3. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIpmiSim } from './ipmi-sim-harness.js';
import type { IpmiSim } from './ipmi-sim-harness.js';

const run = promisify(execFile);
let sim: IpmiSim;

async function ipmitool(...args: string[]): Promise<string> {
  const base = ['-I', 'lanplus', '-C', '3', '-H', sim.host, '-p', String(sim.port), '-U', sim.username, '-P', sim.password];
  try {
    const { stdout } = await run('ipmitool', [...base, ...args], { timeout: 20_000 });
    return stdout;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ipmitool is not installed: apt-get install ipmitool');
    throw e;
  }
}

describe('ipmi_sim harness (checked with ipmitool -I lanplus -C 3)', () => {
  beforeAll(async () => {
    sim = await startIpmiSim();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('reports, switches and cycles power through chassis_control', async () => {
    expect(await ipmitool('power', 'status')).toContain('Chassis Power is off');
    await ipmitool('power', 'on');
    expect(await sim.power()).toBe('on');
    expect(await ipmitool('power', 'status')).toContain('Chassis Power is on');
    await ipmitool('power', 'soft');
    expect(await sim.power()).toBe('off');
    expect(await sim.chassisLog()).toEqual(['power 1', 'shutdown 1']);
  });

  it('keeps the boot device', async () => {
    await ipmitool('chassis', 'bootdev', 'pxe');
    expect(await ipmitool('chassis', 'bootparam', 'get', '5')).toContain('Force PXE');
    await ipmitool('chassis', 'bootdev', 'disk');
    expect(await ipmitool('chassis', 'bootparam', 'get', '5')).toContain('Force Boot from default Hard-Drive');
  });

  it('refuses a wrong password', async () => {
    const base = ['-I', 'lanplus', '-C', '3', '-H', sim.host, '-p', String(sim.port), '-U', sim.username, '-P', 'wrong'];
    await expect(run('ipmitool', [...base, 'power', 'status'], { timeout: 20_000 })).rejects.toThrow(/RMCP\+ session/);
  });
});
