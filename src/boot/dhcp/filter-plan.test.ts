import { describe, expect, it } from 'vitest';
import { planFilterSync } from './filter-plan.js';

const ports = [
  { address: '52:54:00:00:00:01', node_id: 1 },
  { address: '52:54:00:00:00:02', node_id: 2 },
  { address: '52:54:00:00:00:03', node_id: 2 },
];

describe('planFilterSync', () => {
  it('allows the ports of inspected nodes, denies the others, and opens to unknown MACs during inspection', () => {
    expect(planFilterSync({ ports, inspecting: new Set([2]), autoDiscovery: false, denyUnknownMacs: false })).toEqual({
      allow: ['52:54:00:00:00:02', '52:54:00:00:00:03'],
      deny: ['52:54:00:00:00:01'],
      unknown: 'allow',
    });
  });

  it('denies unknown MACs when nothing is inspected and discovery is off', () => {
    expect(planFilterSync({ ports, inspecting: new Set(), autoDiscovery: false, denyUnknownMacs: false }).unknown).toBe('deny');
    expect(planFilterSync({ ports, inspecting: new Set(), autoDiscovery: true, denyUnknownMacs: false }).unknown).toBe('allow');
  });

  it('never allows unknown MACs with deny_unknown_macs', () => {
    expect(planFilterSync({ ports, inspecting: new Set([1]), autoDiscovery: true, denyUnknownMacs: true }).unknown).toBe('deny');
  });
});
