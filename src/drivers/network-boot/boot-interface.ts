/**
 * The shared body of the network boot interfaces (Ironic's `pxe_base.PXEBaseMixin`): a {@link BootFlavor}
 * says where files go and how loaders name them; this module does the rest. Per MAC of every PXE-enabled
 * port: a config booting the agent ramdisk (prepareRamdisk) or the instance of a ramdisk deploy
 * (prepareInstance); the kernel and ramdisk under `<root>/<node uuid>/`; DHCP options pointing the
 * machine at the loader. A local boot writes nothing, removes what a ramdisk boot left and sets the boot
 * device to disk, persistently, as Ironic does.
 *
 * src/drivers/network-boot/ is the library the `pxe`, `ipxe` and `http` boot interfaces share (Ironic's
 * `pxe_base` and `pxe_utils`); each interface's own flavor and config files live in drivers/pxe/,
 * drivers/ipxe/ and drivers/http/.
 */
import type { BootConfig } from '../../config/boot.js';
import type { BootDevice, Node, Port } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { DriverTask } from '../interfaces/base.js';
import type { BootInterface } from '../interfaces/boot.js';
import {
  agentKernelParams, bootOption, instanceImages, instanceKernelParams, pxePorts, ramdiskImages, ramdiskKeys, type BootImagePair, type RamdiskMode,
} from './boot-info.js';
import type { BootDhcpInput, NetworkBootEnvironment } from './environment.js';
import { placeImages, removeImages, writeAtomic } from './node-files.js';
import type { BootEntry } from './boot-entry.js';
import { rm } from 'node:fs/promises';

/** A file a flavor writes for one MAC. */
export interface MacFile {
  /** Absolute path. */
  file: string;
  content: string;
}

/** What differs between `pxe`, `ipxe` and `http`. */
export interface BootFlavor {
  readonly name: string;
  /** Throws ConfigInvalid naming the `[boot]` options this flavor lacks. */
  checkConfig(config: Readonly<BootConfig>): void;
  /** Where per-node kernels and ramdisks go. */
  imageRoot(config: Readonly<BootConfig>): string;
  /** How the loader names `<root>/<uuid>/<label>` (a TFTP path or an HTTP URL). */
  imageRef(config: Readonly<BootConfig>, node: Pick<Node, 'uuid'>, label: string): string;
  /** The configs for one MAC booting `entry`. */
  configFiles(config: Readonly<BootConfig>, entry: BootEntry, mac: string): MacFile[];
  /** Every config path this flavor may have written for `mac` (for clean-up). */
  configPaths(config: Readonly<BootConfig>, mac: string): string[];
  /** The DHCP options' input. */
  dhcpInput(config: Readonly<BootConfig>): BootDhcpInput;
}

/** `driver_info` keys every network boot interface reads. */
export const NETWORK_BOOT_PROPERTIES: Readonly<Record<string, string>> = {
  deploy_kernel: 'URL (http, https or file) of the kernel of the agent ramdisk booted to deploy, clean, inspect and service. Required.',
  deploy_ramdisk: 'URL (http, https or file) of the agent ramdisk (initramfs). Required.',
  rescue_kernel: 'URL of the kernel of the rescue ramdisk. Optional; required to rescue the node.',
  rescue_ramdisk: 'URL of the rescue ramdisk. Optional; required to rescue the node.',
  kernel_append_params: 'Kernel parameters of the agent ramdisk, replacing the configured [boot] kernel_append_params. Optional.',
  force_persistent_boot_device: 'Default, Always or Never: with Never the instance boot device is set for the next boot only. Optional.',
};

/** A boot interface of `flavor`; `env` null (no network boot configured) makes every operation fail with ConfigInvalid. */
export function networkBoot(flavor: BootFlavor, env: NetworkBootEnvironment | null): BootInterface {
  const need = (): NetworkBootEnvironment => {
    if (!env) {
      throw fail('networkBootNotConfigured', { iface: flavor.name });
    }
    flavor.checkConfig(env.config);
    return env;
  };

  const writeConfigs = async (e: NetworkBootEnvironment, ports: readonly Port[], entry: BootEntry) => {
    for (const port of ports) {
      for (const f of flavor.configFiles(e.config, entry, port.address)) await writeAtomic(f.file, f.content);
    }
  };
  const removeConfigs = async (e: NetworkBootEnvironment, ports: readonly Port[]) => {
    for (const port of ports) {
      for (const file of flavor.configPaths(e.config, port.address)) await rm(file, { force: true });
    }
  };
  const entryFor = (e: NetworkBootEnvironment, node: Readonly<Node>, pair: BootImagePair, label: BootEntry['label'], params: string): BootEntry => ({
    label,
    kernel: flavor.imageRef(e.config, node, pair.kernel.label),
    initrd: flavor.imageRef(e.config, node, pair.ramdisk.label),
    params,
  });
  // Through the node's own management interface (Ironic's `manager_utils.node_set_boot_device`).
  const setDevice = async (task: DriverTask, device: BootDevice) => {
    // NOTE: as Ironic's pxe_base.prepare_instance: an active node (conductor take-over) keeps its boot device.
    if (task.node.provision_state === 'active') return;
    const persistent = String(task.node.driver_info.force_persistent_boot_device ?? 'Default').toLowerCase() !== 'never';
    await task.driver.management.setBootDevice(task, device, persistent);
  };

  return {
    name: flavor.name,
    properties: NETWORK_BOOT_PROPERTIES,

    async validate(task) {
      ramdiskImages(task.node, 'deploy');
      bootOption(task.node);
      need();
      pxePorts(task.node, await task.ports());
    },

    async prepareRamdisk(task, mode: RamdiskMode) {
      const e = need();
      const node = task.node;
      const ports = pxePorts(node, await task.ports());
      const pair = ramdiskImages(node, mode);
      const params = agentKernelParams(node, e.config, mode);
      await placeImages(flavor.imageRoot(e.config), node, pair, e.images, task.signal);
      await writeConfigs(e, ports, entryFor(e, node, pair, 'deploy', params));
      await e.dhcp.updatePortOptions(node, ports, e.dhcpOptions(flavor.dhcpInput(e.config)));
    },

    async cleanUpRamdisk(task, mode: RamdiskMode) {
      const e = need();
      const ports = await task.ports();
      await removeConfigs(e, ports);
      await removeImages(flavor.imageRoot(e.config), task.node, ramdiskKeys(mode), e.images);
      await e.dhcp.cleanPortOptions(ports);
    },

    async prepareInstance(task) {
      const e = need();
      const node = task.node;
      if (bootOption(node) === 'local') {
        const ports = await task.ports();
        await removeConfigs(e, ports);
        await e.dhcp.cleanPortOptions(ports);
        await setDevice(task, 'disk');
        return;
      }
      const ports = pxePorts(node, await task.ports());
      const pair = instanceImages(node);
      await placeImages(flavor.imageRoot(e.config), node, pair, e.images, task.signal);
      await writeConfigs(e, ports, entryFor(e, node, pair, 'boot_ramdisk', instanceKernelParams(node, e.config)));
      await e.dhcp.updatePortOptions(node, ports, e.dhcpOptions(flavor.dhcpInput(e.config)));
      await setDevice(task, 'pxe');
    },

    async cleanUpInstance(task) {
      const e = need();
      const ports = await task.ports();
      await removeConfigs(e, ports);
      await removeImages(flavor.imageRoot(e.config), task.node, ['kernel', 'ramdisk'], e.images);
      await e.dhcp.cleanPortOptions(ports);
    },
  };
}

/** ConfigInvalid unless every listed `[boot]` option is set. */
export function requireOptions(config: Readonly<BootConfig>, flavor: string, keys: readonly (keyof BootConfig)[]): void {
  const missing = keys.filter((k) => String(config[k]).trim() === '');
  if (missing.length) throw fail('bootOptionsMissing', { iface: flavor, options: missing.join(', ') });
}

/** `<http_url>/<rest>` without doubled slashes. */
export function httpUrl(config: Pick<BootConfig, 'http_url'>, rest: string): string {
  return `${config.http_url.replace(/\/+$/, '')}/${rest.replace(/^\/+/, '')}`;
}
