import { describe, expect, it } from 'vitest';
import { sampleNode } from '../drivers/interfaces/sample-task.test-support.js';
import { createDriverRegistry } from '../drivers/registry.js';
import { checkNodeUpdate } from './node-update.js';

const registry = createDriverRegistry(['fake-hardware', 'manual-management']);
const fields = registry.resolve('fake-hardware', {});

describe('node update rules', () => {
  it('allows interface changes only in enroll/inspecting/manageable/available or maintenance', () => {
    expect(checkNodeUpdate(registry, sampleNode({ ...fields, provision_state: 'manageable' }), { raid_interface: 'no-raid' }).raid_interface).toBe('no-raid');
    const active = sampleNode({ ...fields, provision_state: 'active' });
    expect(() => checkNodeUpdate(registry, active, { raid_interface: 'no-raid' })).toThrow(
      expect.objectContaining({ code: 'InvalidState', message: expect.stringContaining('can not have raid_interface updated unless') }),
    );
    expect(checkNodeUpdate(registry, { ...active, maintenance: true }, { raid_interface: 'no-raid' }).raid_interface).toBe('no-raid');
  });

  it('changing the driver resets interfaces the new type does not support', () => {
    const out = checkNodeUpdate(registry, sampleNode({ ...fields, provision_state: 'enroll' }), { driver: 'manual-management' });
    expect(out).toMatchObject({ driver: 'manual-management', management_interface: 'noop', raid_interface: 'no-raid', power_interface: 'fake' });
    expect(() => checkNodeUpdate(registry, sampleNode({ ...fields }), { driver: 'nope' })).toThrow(expect.objectContaining({ code: 'NoValidHost' }));
  });

  it('refuses changes during a transition except maintenance', () => {
    const busy = sampleNode({ ...fields, provision_state: 'wait call-back' });
    expect(() => checkNodeUpdate(registry, busy, { extra: { a: 1 } })).toThrow(expect.objectContaining({ code: 'InvalidState' }));
    expect(checkNodeUpdate(registry, busy, { maintenance: true, maintenance_reason: 'stuck' })).toMatchObject({ maintenance: true });
    expect(checkNodeUpdate(registry, sampleNode({ ...fields, provision_state: 'deploy failed' }), { extra: { a: 1 } })).toEqual({ extra: { a: 1 } });
  });

  it('enforces instance_uuid, protected and retired rules', () => {
    const assoc = sampleNode({ ...fields, provision_state: 'active', instance_uuid: 'a7c8f6b0-0000-4000-8000-000000000001' });
    expect(() => checkNodeUpdate(registry, assoc, { instance_uuid: 'a7c8f6b0-0000-4000-8000-000000000002' })).toThrow(expect.objectContaining({ code: 'NodeAssociated' }));
    expect(checkNodeUpdate(registry, assoc, { instance_uuid: null })).toMatchObject({ instance_uuid: null });
    expect(() => checkNodeUpdate(registry, sampleNode({ ...fields }), { protected: true })).toThrow(expect.objectContaining({ code: 'InvalidState' }));
    expect(checkNodeUpdate(registry, assoc, { protected: true, protected_reason: 'prod' })).toMatchObject({ protected: true, protected_reason: 'prod' });
    expect(() => checkNodeUpdate(registry, assoc, { protected_reason: 'x' })).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    expect(checkNodeUpdate(registry, { ...assoc, protected: true, protected_reason: 'prod' }, { protected: false })).toMatchObject({ protected_reason: null });
    expect(() => checkNodeUpdate(registry, sampleNode({ ...fields, provision_state: 'available' }), { retired: true })).toThrow(expect.objectContaining({ code: 'InvalidState' }));
    expect(checkNodeUpdate(registry, sampleNode({ ...fields }), { retired: true, retired_reason: 'old' })).toMatchObject({ retired: true });
  });

  it('unsetting maintenance clears reason and fault; conductor-owned fields are refused', () => {
    const m = sampleNode({ ...fields, maintenance: true, maintenance_reason: 'r', fault: 'clean failure' });
    expect(checkNodeUpdate(registry, m, { maintenance: false })).toEqual({ maintenance: false, maintenance_reason: null, fault: null });
    expect(() => checkNodeUpdate(registry, m, { provision_state: 'active' })).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    expect(() => checkNodeUpdate(registry, m, { reservation: 'x' })).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
  });
});
