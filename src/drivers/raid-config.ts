/** Checks of a target RAID configuration shared by RAID implementations (Ironic's raid_config_schema). */
import type { JsonObject } from '../domain/node.js';
import { fail } from '../shared/errors.js';

export const RAID_LEVELS = ['0', '1', '2', '5', '6', '1+0', '5+0', '6+0'];

/** Throws InvalidParameterValue naming the first problem of `config`; `{}` (clear) is valid. */
export function validateRaidConfig(config: JsonObject): void {
  if (Object.keys(config).length === 0) return;
  const disks = config['logical_disks'];
  if (!Array.isArray(disks) || disks.length === 0) {
    throw fail('raidLogicalDisksMissing');
  }
  const extra = Object.keys(config).filter((k) => k !== 'logical_disks');
  if (extra.length > 0) throw fail('raidConfigUnknownKeys', { keys: extra.join(', ') });
  disks.forEach((disk, i) => {
    if (typeof disk !== 'object' || disk === null || Array.isArray(disk)) {
      throw fail('raidLogicalDiskNotObject', { index: i });
    }
    const size = disk['size_gb'];
    if (!(size === 'MAX' || (typeof size === 'number' && Number.isInteger(size) && size > 0))) {
      throw fail('raidSizeInvalid', { index: i });
    }
    const level = disk['raid_level'];
    if (typeof level !== 'string' || !RAID_LEVELS.includes(level)) {
      throw fail('raidLevelInvalid', { index: i, levels: RAID_LEVELS.join(', ') });
    }
  });
}
