import { describe, it, expect } from 'vitest';
import { extraHardwareHook } from '../../../src/inspection/hooks/extra-hardware.js';
import { defaultInspectorConfig } from '../../../src/config/inspector.js';
import { processInspection } from '../../../src/inspection/process.js';
import { validateInspectionPayload } from '../../../src/inspection/validate.js';
import { hookContext, ipaSample, nodeRecord } from '../processing-fixtures.js';

const FACTS = [
  ['cpu', 'logical', 'number', '16'],
  ['cpu', 'physical_0', 'vendor', 'GenuineIntel'],
  ['memory', 'total', 'size', '137438953472'],
  ['disk', 'sda', 'size', '447'],
  ['disk', 'sda', 'rotational', '0.5'],
  [],
];

describe('extra-hardware', () => {
  it('nests the facts, converts integers and drops data', () => {
    const payload = validateInspectionPayload({ ...ipaSample(), data: FACTS });
    const r = extraHardwareHook.run!(hookContext({ payload }));
    expect(r.pluginData).toEqual({
      extra: {
        cpu: { logical: { number: 16 }, physical_0: { vendor: 'GenuineIntel' } },
        memory: { total: { size: 137438953472 } },
        disk: { sda: { size: 447, rotational: '0.5' } },
      },
      data: undefined,
    });
  });

  it('removes data from the plugin data in a full run', () => {
    const payload = validateInspectionPayload({ ...ipaSample(), data: FACTS });
    const r = processInspection({ node: nodeRecord(), ports: [], payload, config: defaultInspectorConfig({ hooks: ['extra-hardware'] }) });
    expect(r.ok && 'data' in r.pluginData).toBe(false);
    expect(r.ok && (r.pluginData.extra as Record<string, unknown>).cpu).toEqual({ logical: { number: 16 }, physical_0: { vendor: 'GenuineIntel' } });
  });

  it('ignores short facts, and in strict mode drops malformed data', () => {
    const payload = validateInspectionPayload({ ...ipaSample(), data: [['cpu', 'logical'], ['cpu', 'logical', 'number', '4']] });
    const r = extraHardwareHook.run!(hookContext({ payload }));
    expect(r.pluginData!.extra).toEqual({ cpu: { logical: { number: 4 } } });
    expect(r.notes).toHaveLength(1);
    const strict = extraHardwareHook.run!(hookContext({ payload, config: { extra_hardware_strict: true } }));
    expect(strict.pluginData).toEqual({ data: undefined });
  });

  it('warns when the collector did not run', () => {
    const r = extraHardwareHook.run!(hookContext({ payload: validateInspectionPayload(ipaSample()) }));
    expect(r.notes![0]!.level).toBe('warning');
    expect(r.pluginData).toBeUndefined();
  });
});
