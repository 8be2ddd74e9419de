import { describe, expect, it } from 'vitest';
import { INTERFACES } from '../domain/node.js';
import { HARDWARE_TYPES } from './hardware-types.js';
import { IMPLEMENTATIONS } from './implementations.js';
import { createDriverRegistry } from './registry.js';

const registry = createDriverRegistry(['fake-hardware', 'manual-management']);

describe('driver registry', () => {
  it('fills defaults: the first available implementation of each interface', () => {
    const f = registry.resolve('fake-hardware', {});
    expect(f.power_interface).toBe('fake');
    expect(f.network_interface).toBe('noop');
    expect(f.storage_interface).toBe('noop');
    expect(f.raid_interface).toBe('fake');
    const m = registry.resolve('manual-management', {});
    expect(m.management_interface).toBe('noop');
    expect(m.power_interface).toBe('fake');
    expect(m.vendor_interface).toBe('no-vendor');
    expect(m.raid_interface).toBe('no-raid');
  });

  it('keeps a requested supported implementation', () => {
    expect(registry.resolve('fake-hardware', { raid_interface: 'no-raid' }).raid_interface).toBe('no-raid');
  });

  it('rejects an unknown driver with NoValidHost', () => {
    expect(() => registry.resolve('ipmi-xyz', {})).toThrow(expect.objectContaining({ code: 'NoValidHost' }));
  });

  it('rejects unknown and unsupported implementations', () => {
    expect(() => registry.resolve('fake-hardware', { power_interface: 'bogus' })).toThrow(expect.objectContaining({ code: 'InterfaceNotFoundInEntrypoint' }));
    expect(() => registry.resolve('manual-management', { raid_interface: 'fake' })).toThrow(
      expect.objectContaining({ code: 'InvalidParameterValue', message: "raid interface implementation 'fake' is not supported by hardware type manual-management." }),
    );
  });

  it('loads a driver with an implementation per interface', () => {
    const d = registry.load({ driver: 'fake-hardware', ...registry.resolve('fake-hardware', {}) });
    for (const iface of INTERFACES) expect(d[iface].name).toBe(registry.interfacesOf('fake-hardware')[iface].default);
  });

  it('documents the delay keys as properties of fake-hardware', () => {
    expect(Object.keys(registry.properties('fake-hardware'))).toEqual(expect.arrayContaining(['fake_power_delay', 'fake_deploy_delay']));
  });

  it('throws DriverNotFound for a hardware type that is not enabled', () => {
    const only = createDriverRegistry(['fake-hardware']);
    expect(only.hardwareTypes()).toEqual(['fake-hardware']);
    expect(() => only.interfacesOf('manual-management')).toThrow(expect.objectContaining({ code: 'DriverNotFound' }));
  });

  it('refuses an unknown hardware type in the configuration', () => {
    expect(() => createDriverRegistry(['nope'])).toThrow(expect.objectContaining({ code: 'ConfigInvalid' }));
  });

  it('every hardware type has an implemented default per interface', () => {
    for (const [name, type] of Object.entries(HARDWARE_TYPES)) {
      for (const iface of INTERFACES) expect(type[iface].some((i) => i in IMPLEMENTATIONS[iface]), `${name}.${iface}`).toBe(true);
    }
  });
});
