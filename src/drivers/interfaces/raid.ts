import type { JsonObject } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

/** Builds and removes RAID volumes from `target_raid_config`. */
export interface RaidInterface extends DriverInterface {
  /** Throws InvalidParameterValue when `config` is not a valid target RAID configuration. */
  validateRaidConfig(task: DriverTask, config: JsonObject): void;
  createConfiguration(task: DriverTask): Promise<void>;
  deleteConfiguration(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    raid: RaidInterface;
  }
}
