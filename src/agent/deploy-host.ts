/**
 * What the deploy commands need of the machine: its disks (and where to open them), flushing buffers,
 * and powering off or rebooting. On a real machine the disks are the inventory's block devices and power
 * goes through `poweroff`/`reboot` (falling back to the kernel's sysrq trigger, as IPA does). A simulated
 * machine's disks are files, and power actions are handed to the simulator.
 */
import { stat, truncate, writeFile } from 'node:fs/promises';
import type { InventoryDisk } from '../protocol/agent/inventory.js';
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { matchRootDeviceHints } from '../protocol/agent/root-device-hints.js';
import { defaultRootDisk } from './collectors/default.js';
import { fail } from '../shared/errors.js';
import { deviceNotFound, systemRebootError } from './api/errors.js';
import type { HardwareManager } from './hardware/manager.js';
import { profileInventory } from './hardware/simulated.js';
import type { AgentSystem } from './system.js';

/** A disk of the machine and the path the agent opens to write it. */
export interface HostDisk extends InventoryDisk {
  /** Block device, or the file standing for a simulated disk; null when the disk cannot be written. */
  path: string | null;
}

/** The machine, as the deploy commands see it. */
export interface DeployHost {
  /** The disks, in inventory order. */
  disks(): Promise<HostDisk[]>;
  /** Flushes file system buffers (`sync`). */
  sync(): Promise<void>;
  /** Powers the machine off; on a real machine this does not return. */
  powerOff(): Promise<void>;
  /** Reboots the machine (into the written image). */
  reboot(): Promise<void>;
}

/**
 * The disk to write the image to (IPA `get_os_install_device`): the first disk matching the root device
 * hints (`instance_info.root_device`, else `properties.root_device`), or without hints the smallest
 * disk of at least 4 GiB. Throws DeviceNotFound naming the hints.
 */
export function chooseRootDisk(disks: HostDisk[], node: Record<string, unknown> | null): HostDisk {
  const instanceInfo = (node?.instance_info ?? {}) as Record<string, unknown>;
  const properties = (node?.properties ?? {}) as Record<string, unknown>;
  const hints = instanceInfo.root_device ?? properties.root_device ?? null;
  const disk = hints ? matchRootDeviceHints(disks, hints) : (defaultRootDisk(disks) as HostDisk | null);
  if (!disk) {
    const names = disks.map((d) => `${d.name} (${d.size} bytes)`).join(', ') || 'none';
    throw hints ? deviceNotFound('rootDiskNoHintMatch', { hints: JSON.stringify(hints), disks: names }) : deviceNotFound('rootDiskNoneLargeEnough', { disks: names });
  }
  return disk;
}

async function runPower(system: AgentSystem, tool: 'poweroff' | 'reboot', sysrq: 'o' | 'b'): Promise<void> {
  await system.run('sync', []);
  const r = await system.run(tool, []);
  if (r.ok && !/ignoring request/i.test(r.stderr)) return;
  try {
    await writeFile('/proc/sysrq-trigger', sysrq);
  } catch (err) {
    throw systemRebootError('powerCommandFailed', { tool, reason: r.error ?? r.stderr.trim(), error: (err as Error).message });
  }
}

/** The real machine: inventory disks as block devices, `sync`, `poweroff`, `reboot`. */
export function linuxDeployHost(system: AgentSystem, manager: HardwareManager): DeployHost {
  return {
    async disks() {
      const { inventory } = await manager.collectInventory();
      return inventory.disks.map((d) => ({ ...d, path: d.name }));
    },
    async sync() {
      const r = await system.run('sync', []);
      if (!r.ok) throw new Error(`Flushing file system buffers failed. Error: ${r.error}`);
    },
    powerOff: () => runPower(system, 'poweroff', 'o'),
    reboot: () => runPower(system, 'reboot', 'b'),
  };
}

/** Options of {@link simulatedDeployHost}. */
export interface SimulatedHostOptions {
  /** Disk name (`/dev/sda`) → file. Missing files are created sparse, at the profile's size. */
  diskFiles: Record<string, string>;
  onPowerOff?: () => void | Promise<void>;
  onReboot?: () => void | Promise<void>;
}

/** A simulated machine: the profile's disks, each backed by a file (or not writable without one). */
export function simulatedDeployHost(profile: HardwareProfile, options: SimulatedHostOptions): DeployHost {
  const inventory = profileInventory(profile);
  let prepared: Promise<HostDisk[]> | null = null;
  const prepare = async (): Promise<HostDisk[]> =>
    Promise.all(
      inventory.disks.map(async (d) => {
        const file = options.diskFiles[d.name] ?? null;
        if (!file) return { ...d, path: null };
        try {
          // The disk's size is the file's: writes must fit the file.
          return { ...d, size: (await stat(file)).size, path: file };
        } catch {
          await writeFile(file, '');
          await truncate(file, d.size);
          return { ...d, path: file };
        }
      }),
    );
  return {
    disks: () => (prepared ??= prepare()),
    async sync() {},
    async powerOff() {
      await options.onPowerOff?.();
    },
    async reboot() {
      await options.onReboot?.();
    },
  };
}

/**
 * Reads `ipa-simulated-disk`: `NAME=FILE` pairs separated by commas, or one FILE for the profile's
 * first disk. Throws InvalidParameterValue for a name the profile does not have.
 */
export function parseSimulatedDisks(value: string | null, profile: HardwareProfile): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const item of value.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? profile.disks[0]?.name : item.slice(0, eq);
    const file = eq < 0 ? item : item.slice(eq + 1);
    if (!name || !profile.disks.some((d) => d.name === name)) {
      throw fail('simulatedDiskUnknown', { disk: name ?? '(none)', disks: profile.disks.map((d) => d.name).join(', ') || 'no disks' });
    }
    out[name] = file;
  }
  return out;
}
