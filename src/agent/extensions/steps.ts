/**
 * The steps this agent's hardware manager offers (IPA `hardware.py` `GenericHardwareManager`
 * `get_clean_steps` / `get_deploy_steps`) and their implementations, shared by the `clean` and `deploy`
 * extensions.
 */
import { CLEAN_STEP_PRIORITIES, type AgentStep, type HardwareManagerVersions } from '../../protocol/agent/commands.js';
import { messageOf } from '../../shared/errors.js';
import { blockDeviceEraseError } from '../api/errors.js';
import { withDisk } from '../disk/disk-target.js';
import { eraseDisk, eraseMetadata } from '../disk/erase.js';
import type { ExtensionContext } from './context.js';

/** The name the steps are reported under, and the manager versions the conductor compares. */
export const STEP_MANAGER = 'IngotHardwareManager';
export const MANAGER_VERSIONS: HardwareManagerVersions = { ingot_hardware_manager: '1.0' };

/** Clean steps, with IPA's generic manager's priorities. */
export function cleanSteps(): AgentStep[] {
  return [
    { step: 'erase_devices', priority: CLEAN_STEP_PRIORITIES.erase_devices, interface: 'deploy', reboot_requested: false, abortable: true },
    { step: 'erase_devices_metadata', priority: CLEAN_STEP_PRIORITIES.erase_devices_metadata, interface: 'deploy', reboot_requested: false, abortable: true },
  ];
}

/** Deploy steps: all priority 0, the conductor runs them by name (`write_image` is proxied from its own step). */
export function deploySteps(): AgentStep[] {
  return [
    { step: 'erase_devices_metadata', priority: 0, interface: 'deploy', reboot_requested: false },
    { step: 'write_image', priority: 0, interface: 'deploy', reboot_requested: false },
  ];
}

/** True when `given` is absent (first call) or equals the agent's versions. */
export function versionsMatch(given: unknown): boolean {
  if (given === undefined || given === null) return true;
  return JSON.stringify(Object.entries(given as object).sort()) === JSON.stringify(Object.entries(MANAGER_VERSIONS).sort());
}

/** Runs `fn` on every writable disk; a failure names the disk. */
async function eachDisk(ctx: ExtensionContext, what: string, fn: (path: string) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const d of await ctx.host.disks()) {
    if (!d.path) {
      ctx.log(`${what}: ${d.name} has no backing file, skipped`);
      continue;
    }
    try {
      await fn(d.path);
      ctx.log(`${what}: ${d.name} done`);
    } catch (err) {
      failures.push(`${d.name}: ${messageOf(err)}`);
    }
  }
  if (failures.length) throw blockDeviceEraseError('eraseFailed', { step: what, failures: failures.join('; ') });
}

/** Zeroes partition tables and signatures at both ends of every disk. */
export function eraseDevicesMetadata(ctx: ExtensionContext): Promise<void> {
  return eachDisk(ctx, 'erase_devices_metadata', (p) => withDisk(p, (disk) => eraseMetadata(disk)));
}

/** Overwrites every disk with zeros. */
export function eraseDevices(ctx: ExtensionContext): Promise<void> {
  return eachDisk(ctx, 'erase_devices', (p) => withDisk(p, (disk) => eraseDisk(disk, ctx.signal)));
}
