/** Conformance suite of {@link RaidInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { RaidInterface } from './raid.js';

export function raidConformance(label: string, make: () => RaidInterface): void {
  describe(`raid interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('accepts a valid target config and an empty one', () => {
      const r = make();
      r.validateRaidConfig(sampleTask(), { logical_disks: [{ size_gb: 100, raid_level: '1', is_root_volume: true }] });
      r.validateRaidConfig(sampleTask(), {});
    });
    it('rejects invalid configs', () => {
      const r = make();
      expect(() => r.validateRaidConfig(sampleTask(), { logical_disks: [] })).toThrow(/logical_disks/);
      expect(() => r.validateRaidConfig(sampleTask(), { logical_disks: [{ size_gb: 10, raid_level: '7' }] })).toThrow(/raid_level/);
      expect(() => r.validateRaidConfig(sampleTask(), { logical_disks: [{ size_gb: -1, raid_level: '0' }] })).toThrow(/size_gb/);
    });
    it('creates the target config and deletes it', async () => {
      const r = make();
      const target = { logical_disks: [{ size_gb: 'MAX', raid_level: '0' }] };
      const task = sampleTask({ target_raid_config: target });
      await r.createConfiguration(task);
      expect(task.node.raid_config).toEqual(target);
      await r.deleteConfiguration(task);
      expect(task.node.raid_config).toEqual({});
    });
  });
}
