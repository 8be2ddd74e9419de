/**
 * What a network boot reads from the node: the images to boot (driver_info / instance_info), the boot
 * option (local or ramdisk), the kernel parameters handed to the agent, and the MAC spellings the boot
 * loaders look their per-machine configs up by.
 */
import type { BootConfig } from '../../config/boot.js';
import type { JsonObject, Node, Port } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import { ETHERNET_MAC, normalizeMac } from '../../shared/mac.js';

/** The ramdisk modes of {@link BootInterface.prepareRamdisk}. */
export type RamdiskMode = 'deploy' | 'rescue' | 'inspect' | 'clean' | 'service';

/** A kernel and ramdisk pair and the labels their per-node files are named by. */
export interface BootImagePair {
  kernel: { label: string; url: string };
  ramdisk: { label: string; url: string };
}

/** `driver_info` keys of the ramdisk images (Ironic's `deploy_kernel`/`deploy_ramdisk`, `rescue_*` for rescue). */
export function ramdiskKeys(mode: RamdiskMode): [string, string] {
  return mode === 'rescue' ? ['rescue_kernel', 'rescue_ramdisk'] : ['deploy_kernel', 'deploy_ramdisk'];
}

/** The ramdisk images of `mode`; MissingParameterValue naming the missing keys (Ironic's wording). */
export function ramdiskImages(node: Readonly<Node>, mode: RamdiskMode): BootImagePair {
  const [k, r] = ramdiskKeys(mode);
  const missing = [k, r].filter((key) => !nonEmpty(node.driver_info[key]));
  if (missing.length) {
    throw fail('nodeParametersMissing', { field: 'driver_info', missing: JSON.stringify(missing) });
  }
  return { kernel: { label: k, url: checkedUrl(node.driver_info[k] as string, `driver_info.${k}`) }, ramdisk: { label: r, url: checkedUrl(node.driver_info[r] as string, `driver_info.${r}`) } };
}

/** The instance kernel and ramdisk of a ramdisk deploy (`instance_info.kernel` / `instance_info.ramdisk`). */
export function instanceImages(node: Readonly<Node>): BootImagePair {
  const missing = ['kernel', 'ramdisk'].filter((key) => !nonEmpty(node.instance_info[key]));
  if (missing.length) {
    throw fail('nodeParametersMissing', { field: 'instance_info', missing: JSON.stringify(missing) });
  }
  return {
    kernel: { label: 'kernel', url: checkedUrl(node.instance_info.kernel as string, 'instance_info.kernel') },
    ramdisk: { label: 'ramdisk', url: checkedUrl(node.instance_info.ramdisk as string, 'instance_info.ramdisk') },
  };
}

/**
 * How the deployed instance boots (Ironic's `deploy_utils.get_boot_option`): `ramdisk` for the `ramdisk`
 * deploy interface, else `instance_info.capabilities.boot_option` (an object or its JSON text), else `local`.
 */
export function bootOption(node: Readonly<Node>): 'local' | 'ramdisk' {
  if (node.deploy_interface === 'ramdisk') return 'ramdisk';
  let caps = node.instance_info.capabilities;
  if (typeof caps === 'string') {
    const text = caps;
    try {
      caps = JSON.parse(text) as JsonObject;
    } catch {
      throw fail('capabilitiesNotJson', { node: node.uuid, capabilities: text });
    }
  }
  const opt = caps && typeof caps === 'object' && !Array.isArray(caps) ? caps.boot_option : undefined;
  if (opt === undefined || opt === null || opt === 'local') return 'local';
  if (opt === 'ramdisk') return 'ramdisk';
  throw fail('bootOptionInvalid', { option: String(opt), node: node.uuid });
}

/** PXE-enabled ports, or InvalidParameterValue when the node has none (nothing could network-boot). */
export function pxePorts(node: Readonly<Node>, ports: readonly Port[]): Port[] {
  const enabled = ports.filter((p) => p.pxe_enabled);
  if (enabled.length === 0) {
    throw fail('noPxePort', { node: node.uuid });
  }
  for (const p of enabled) macHyphens(p.address);
  return enabled;
}

/** `aa-bb-cc-dd-ee-ff` (iPXE's `${mac:hexhyp}`); InvalidParameterValue for anything but an Ethernet MAC. */
export function macHyphens(mac: string): string {
  return normalizeMac(mac, ETHERNET_MAC).replace(/:/g, '-');
}

/** `aa:bb:cc:dd:ee:ff`. */
export function macColons(mac: string): string {
  return normalizeMac(mac, ETHERNET_MAC);
}

/** `BOOTIF=01-aa-bb-cc-dd-ee-ff`: PXELINUX's form (ARP type 1, Ethernet), read by the agent for its boot MAC. */
export function bootIf(mac: string): string {
  return `BOOTIF=01-${macHyphens(mac)}`;
}

/**
 * The kernel parameters of the agent ramdisk, without BOOTIF (added per MAC): the configured (or the
 * node's `driver_info.kernel_append_params`) parameters, then Ironic's `build_agent_options`
 * (`ipa-api-url`, and for inspection `ipa-inspection-callback-url`). The agent token is never among them:
 * the agent gets it from the lookup.
 */
export function agentKernelParams(node: Readonly<Node>, config: Pick<BootConfig, 'api_url' | 'kernel_append_params'>, mode: RamdiskMode): string {
  const api = config.api_url.trim().replace(/\/+$/, '');
  if (!api) throw fail('bootApiUrlEmpty');
  const own = node.driver_info.kernel_append_params;
  const extra = typeof own === 'string' ? own : config.kernel_append_params;
  const params = [oneLine(extra, 'kernel_append_params'), `ipa-api-url=${oneLine(api, 'boot.api_url')}`];
  if (mode === 'inspect') params.push(`ipa-inspection-callback-url=${api}/v1/continue_inspection`);
  return params.filter((p) => p.trim() !== '').join(' ');
}

/** The instance's kernel parameters of a ramdisk deploy: configured ones and `instance_info.ramdisk_kernel_arguments`. */
export function instanceKernelParams(node: Readonly<Node>, config: Pick<BootConfig, 'kernel_append_params'>): string {
  const own = node.instance_info.kernel_append_params;
  const base = typeof own === 'string' ? own : config.kernel_append_params;
  const args = node.instance_info.ramdisk_kernel_arguments;
  return [oneLine(base, 'kernel_append_params'), typeof args === 'string' ? oneLine(args, 'instance_info.ramdisk_kernel_arguments') : '']
    .filter((p) => p.trim() !== '')
    .join(' ');
}

function nonEmpty(v: unknown): boolean {
  return typeof v === 'string' && v.trim() !== '';
}

/** NOTE: values go into line-based boot configs; a line break would let them add config lines of their own. */
function oneLine(value: string, what: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw fail('bootValueNotOneLine', { field: what });
  return value.trim();
}

function checkedUrl(value: string, what: string): string {
  const v = oneLine(value, what);
  if (/\s/.test(v)) throw fail('bootUrlHasSpaces', { field: what, url: v });
  if (!/^(https?|file):\/\//i.test(v)) throw fail('bootUrlScheme', { field: what, url: v });
  return v;
}
