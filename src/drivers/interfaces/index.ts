/**
 * The per-concern driver contracts, and the map from interface name to contract (`InterfaceContracts`,
 * declared in base.ts and filled in by each contract's file).
 */
import type { BiosInterface } from './bios.js';
import type { BootInterface } from './boot.js';
import type { ConsoleInterface } from './console.js';
import type { DeployInterface } from './deploy.js';
import type { FirmwareInterface } from './firmware.js';
import type { InspectInterface } from './inspect.js';
import type { ManagementInterface } from './management.js';
import type { NetworkInterface } from './network.js';
import type { PowerInterface } from './power.js';
import type { RaidInterface } from './raid.js';
import type { RescueInterface } from './rescue.js';
import type { StorageInterface } from './storage.js';
import type { VendorInterface } from './vendor.js';

export type {
  DiscoveredPort, DriverInterface, DriverTask, FlowStep, InterfaceContracts, NodeDriver, Step, StepFn, StepResult,
} from './base.js';
export type { AsyncResult, HeartbeatHandling, HeartbeatOutcome } from './deploy.js';
export type {
  BiosInterface, BootInterface, ConsoleInterface, DeployInterface, FirmwareInterface, InspectInterface, ManagementInterface,
  NetworkInterface, PowerInterface, RaidInterface, RescueInterface, StorageInterface, VendorInterface,
};
