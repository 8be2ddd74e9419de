import { describe, expect, it } from 'vitest';
import { simulatedProfile } from '../profiles.js';
import { simulatedMachine } from '../simulated.js';
import { BootOptions } from './boot-options.js';

const make = () => {
  const machine = simulatedMachine({ name: 'sim-0', profile: simulatedProfile(0), username: 'admin', password: 'secret' });
  return { machine, options: new BootOptions(machine) };
};

describe('emulated boot options', () => {
  it('maps boot flags to the machine boot override and back', () => {
    const { machine, options } = make();
    expect(options.set({ parameter: 5, markInvalid: false, data: Buffer.from('a014000000', 'hex') }).completionCode).toBe(0);
    expect(machine.bootOverride()).toEqual({ device: 'cdrom', persistence: 'once', mode: 'uefi' });
    expect(options.get(5).data?.toString('hex')).toBe('a014000000');
    options.set({ parameter: 5, markInvalid: false, data: Buffer.from('c018000000', 'hex') });
    expect(machine.bootOverride()).toEqual({ device: 'bios', persistence: 'continuous', mode: 'legacy' });
    options.set({ parameter: 5, markInvalid: false, data: Buffer.from('0000000000', 'hex') });
    expect(machine.bootOverride().device).toBe('none');
    expect(options.get(5).data?.[0]).toBe(0x00);
  });

  it('refuses devices the machine cannot boot from and short data', () => {
    const { machine, options } = make();
    expect(options.set({ parameter: 5, markInvalid: false, data: Buffer.from('8010000000', 'hex') }).completionCode).toBe(0xcc);
    expect(options.set({ parameter: 5, markInvalid: false, data: Buffer.from('80', 'hex') }).completionCode).toBe(0xc7);
    expect(machine.bootOverride().device).toBe('none');
  });

  it('stores set-in-progress and boot info acknowledge, and reports others unsupported', () => {
    const { options } = make();
    options.set({ parameter: 0, markInvalid: false, data: Buffer.from([1]) });
    expect(options.get(0).data?.[0]).toBe(1);
    options.set({ parameter: 0, markInvalid: false, data: Buffer.from([0]) });
    expect(options.get(0).data?.[0]).toBe(0);
    options.set({ parameter: 4, markInvalid: false, data: Buffer.from([0x01, 0x01]) });
    expect(options.get(4).data?.toString('hex')).toBe('0001');
    expect(options.get(42).completionCode).toBe(0x80);
    expect(options.set({ parameter: 42, markInvalid: false, data: Buffer.alloc(1) }).completionCode).toBe(0x80);
  });
});
