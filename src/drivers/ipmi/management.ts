/**
 * Boot device and other out-of-band management of the `ipmi` hardware type, under Ironic's
 * implementation name `ipmitool` (NOTE: the client is Ingot's own; no `ipmitool` process runs).
 */
import type { BootDevice, Node } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { ManagementInterface } from '../interfaces/management.js';
import {
  CHASSIS_CONTROL, chassisControl, GET_BOOT_FLAGS, GET_DEVICE_ID, getLanIpAddress, KEEP_BOOT_FLAGS, readBootFlags, readDeviceId, readLanIpAddress, setBootFlags,
} from './commands.js';
import { IPMI_PROPERTIES, parseIpmiDriverInfo } from './driver-info.js';
import { asIngotError, IpmiError } from './errors.js';
import type { IpmiRequester } from './requester.js';

/** Boot devices IPMI can force (Ironic's ipmitool management offers the same). */
export const IPMI_BOOT_DEVICES: readonly BootDevice[] = ['pxe', 'disk', 'cdrom', 'bios', 'safe'];

/** True when the node boots in UEFI mode: `boot_mode`, else `properties.capabilities` `boot_mode:uefi`. */
export function isUefi(node: Readonly<Node>): boolean {
  if (node.boot_mode) return node.boot_mode === 'uefi';
  const caps = node.properties['capabilities'];
  if (typeof caps === 'string') return caps.split(',').some((c) => c.trim() === 'boot_mode:uefi');
  if (caps && typeof caps === 'object' && !Array.isArray(caps)) return caps['boot_mode'] === 'uefi';
  return false;
}

async function guarded<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw asIngotError(err, 'DriverOperationError');
  }
}

/** What the IPMI management interface needs. */
export interface IpmiManagementDeps {
  /** The conductor's IPMI client (sessions reused across tasks). */
  client: IpmiRequester;
  /** Boot devices to offer: {@link IPMI_BOOT_DEVICES} or a subset of it, for BMCs that refuse some selectors. */
  bootDevices?: readonly BootDevice[];
}

/** The `ipmitool` management interface over `deps.client`. */
export function ipmiManagement(deps: IpmiManagementDeps): ManagementInterface {
  const client: IpmiRequester = deps.client;
  const devices = (deps.bootDevices ?? IPMI_BOOT_DEVICES).filter((d) => IPMI_BOOT_DEVICES.includes(d));
  return {
    name: 'ipmitool',
    properties: IPMI_PROPERTIES,
    validate(task) {
      parseIpmiDriverInfo(task.node.driver_info);
    },
    getSupportedBootDevices: async () => [...devices],

    async setBootDevice(task, device, persistent) {
      if (!devices.includes(device)) {
        throw fail('invalidBootDevice', { device, supported: devices.join(', ') });
      }
      const bmc = parseIpmiDriverInfo(task.node.driver_info);
      await guarded(task.signal, async () => {
        try {
          await client.request(bmc, KEEP_BOOT_FLAGS, task.signal);
        } catch (err) {
          // Optional parameter: a BMC without it answers with a completion code, and boot flags still work.
          if (!(err instanceof IpmiError && err.kind === 'completion')) throw err;
        }
        await client.request(bmc, setBootFlags(device, persistent, isUefi(task.node)), task.signal);
      });
    },

    async getBootDevice(task) {
      const bmc = parseIpmiDriverInfo(task.node.driver_info);
      return guarded(task.signal, async () => {
        const flags = readBootFlags(await client.request(bmc, GET_BOOT_FLAGS, task.signal));
        return { boot_device: flags.device, persistent: flags.persistent };
      });
    },

    injectNmi: (task) => injectNmi(task, client),
  };
}

/** Pulses the diagnostic interrupt (NMI) of the node's machine (Chassis Control 0x04, Ironic's `inject_nmi`). */
export async function injectNmi(task: DriverTask, client: IpmiRequester): Promise<void> {
  const bmc = parseIpmiDriverInfo(task.node.driver_info);
  await guarded(task.signal, () => client.request(bmc, chassisControl(CHASSIS_CONTROL.PULSE_DIAG), task.signal));
}

/**
 * The BMC's own IPv4 address (Get LAN Configuration Parameters, parameter 3) as it reports it for the
 * channel the request came in on, or channel 1 when the BMC does not know channel 0x0E.
 */
export async function bmcAddress(task: DriverTask, client: IpmiRequester): Promise<string> {
  const bmc = parseIpmiDriverInfo(task.node.driver_info);
  return guarded(task.signal, async () => {
    try {
      return readLanIpAddress(await client.request(bmc, getLanIpAddress(0x0e), task.signal));
    } catch (err) {
      if (!(err instanceof IpmiError && err.kind === 'completion')) throw err;
      return readLanIpAddress(await client.request(bmc, getLanIpAddress(1), task.signal));
    }
  });
}

/** Who made the BMC and what it runs (Get Device ID): for logs, support and vendor quirks. */
export async function bmcDeviceId(task: DriverTask, client: IpmiRequester): Promise<ReturnType<typeof readDeviceId>> {
  const bmc = parseIpmiDriverInfo(task.node.driver_info);
  return guarded(task.signal, async () => readDeviceId(await client.request(bmc, GET_DEVICE_ID, task.signal)));
}
