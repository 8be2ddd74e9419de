import { describe, expect, it } from 'vitest';
import { parseMachineSpecs, simulatedSpecs } from './fleet-spec.js';

describe('machine declarations', () => {
  it('accepts simulated and qemu machines', () => {
    const specs = parseMachineSpecs([
      { name: 'a', backend: 'simulated', faults: { latency_ms: 5 } },
      { name: 'vm-1', backend: 'qemu', memory_mib: 512, nics: [{ mac: '52:54:00:12:34:56', tap: 'tap0' }] },
    ]);
    expect(specs.map((s) => s.backend)).toEqual(['simulated', 'qemu']);
    const faults = { agent_error: 'mdadm failed', agent_missing: false, agent_stall: true };
    expect(parseMachineSpecs([{ name: 'stall', backend: 'simulated', faults }])[0]?.faults).toEqual(faults);
    expect(simulatedSpecs(2, 'r1')).toEqual([
      { name: 'r1-0', backend: 'simulated', profile_index: 0 },
      { name: 'r1-1', backend: 'simulated', profile_index: 1 },
    ]);
  });

  it('names the machine and the field of a bad entry', () => {
    expect(() => parseMachineSpecs({})).toThrow(/expected a JSON array/);
    expect(() => parseMachineSpecs([{ name: 'x', backend: 'vm' }])).toThrow(/machine 0 \(x\): "backend" must be/);
    expect(() => parseMachineSpecs([{ name: 'x', backend: 'qemu', nics: [{ mac: 'nope' }] }])).toThrow(/machine 0 \(x\): \/nics\/0\/mac/);
    expect(() => parseMachineSpecs([{ name: 'x', backend: 'simulated', faults: { drop_rate: 2 } }])).toThrow(/\/faults\/drop_rate/);
    expect(() => parseMachineSpecs([{ name: 'x', backend: 'simulated', faults: { agent_stall: 'yes' } }])).toThrow(/\/faults\/agent_stall/);
    expect(() => parseMachineSpecs([{ name: 'x', backend: 'simulated' }, { name: 'x', backend: 'simulated' }])).toThrow(/used twice/);
  });
});
