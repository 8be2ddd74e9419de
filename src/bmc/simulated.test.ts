import { describe, expect, it } from 'vitest';
import type { BootEvent } from './machine.js';
import { simulatedMac, simulatedProfile } from './profiles.js';
import { simulatedMachine } from './simulated.js';

const make = () => simulatedMachine({ name: 'sim-0', profile: simulatedProfile(0), username: 'admin', password: 'secret' });

describe('simulated machine', () => {
  it('boots from a one-time override once, then from disk', async () => {
    const m = make();
    const boots: BootEvent['device'][] = [];
    m.onBoot((e) => boots.push(e.device));
    m.setBootOverride({ device: 'pxe', persistence: 'once' });
    await m.act('on');
    expect(await m.power()).toBe('on');
    await m.act('reset');
    expect(boots).toEqual(['pxe', 'disk']);
    expect(m.bootOverride().device).toBe('none');
  });

  it('keeps a continuous override and does not boot again on a redundant power on', async () => {
    const m = make();
    const boots: string[] = [];
    const stop = m.onBoot((e) => boots.push(e.device));
    m.setBootOverride({ device: 'cdrom', persistence: 'continuous' });
    await m.act('on');
    await m.act('on');
    await m.act('cycle');
    stop();
    await m.act('reset');
    expect(boots).toEqual(['cdrom', 'cdrom']);
    await m.act('soft-off');
    expect(await m.power()).toBe('off');
  });

  it('tells the power-off listeners when it goes from on to off, not at a reset or when already off', async () => {
    const m = make();
    const offs: string[] = [];
    const stop = m.onPowerOff((machine) => offs.push(machine.name));
    await m.act('off');
    await m.act('on');
    await m.act('reset');
    await m.act('soft-off');
    await m.act('off');
    expect(offs).toEqual(['sim-0']);
    await m.act('cycle');
    await m.act('off');
    expect(offs).toEqual(['sim-0', 'sim-0']);
    stop();
    await m.act('on');
    await m.act('off');
    expect(offs).toHaveLength(2);
  });

  it('accepts power actions and ignores them when power hangs', async () => {
    const m = make();
    m.faults.hang_power = true;
    await m.act('on');
    expect(await m.power()).toBe('off');
  });

  it('inserts and ejects virtual media', () => {
    const m = make();
    m.insertMedia('http://127.0.0.1/boot.iso');
    expect(m.virtualMedia()).toEqual({ image: 'http://127.0.0.1/boot.iso', inserted: true, write_protected: true });
    m.ejectMedia();
    expect(m.virtualMedia().inserted).toBe(false);
  });

  it('gives every machine distinct, stable MACs and a varied profile', () => {
    const macs = new Set<string>();
    for (let i = 0; i < 300; i++) for (const nic of simulatedProfile(i).nics) macs.add(nic.mac);
    expect(macs.size).toBe([...Array(300).keys()].reduce((n, i) => n + simulatedProfile(i).nics.length, 0));
    expect(simulatedProfile(7)).toEqual(simulatedProfile(7));
    expect(simulatedMac(1, 0)).toBe('52:54:00:00:00:08');
    expect(new Set([0, 1, 2, 3].map((i) => simulatedProfile(i).cpu.count)).size).toBe(4);
  });
});
