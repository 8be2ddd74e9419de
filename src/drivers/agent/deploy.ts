/**
 * The deploy interfaces of Ingot's agent (Ironic's `direct` and `ramdisk`). They say what runs, the
 * conductor runs it: `direct` is carried by the ramdisk agent — the conductor boots the agent ramdisk at
 * the `deploy` step, and the agent's heartbeats drive the steps after it, with Ironic's priorities:
 * `write_image` (80, `standby.prepare_image`), `prepare_instance_boot` (60), `tear_down_agent` (40),
 * `switch_to_tenant_network` (30), `boot_instance` (20). `ramdisk` boots the instance's own kernel and
 * ramdisk and writes nothing. Both clean through the agent: `erase_devices_metadata` (99) and
 * `erase_devices` (10, switched off by the conductor's default `erase_devices_priority` of 0).
 */
import type { Node } from '../../domain/node.js';
import { parseRootDeviceHints } from '../../protocol/agent/root-device-hints.js';
import { fail, messageOf } from '../../shared/errors.js';
import { toBool } from '../../shared/strict-bool.js';
import type { DriverTask } from '../interfaces/base.js';
import type { DefaultStep, DeployInterface } from '../interfaces/deploy.js';
import { instanceImages } from '../pxe/boot-info.js';

/** Ironic's default priorities of the agent deploy steps after `deploy` (100). */
export const AGENT_DEPLOY_STEPS: readonly DefaultStep[] = [
  { step: 'write_image', priority: 80 },
  { step: 'prepare_instance_boot', priority: 60 },
  { step: 'tear_down_agent', priority: 40 },
  { step: 'switch_to_tenant_network', priority: 30 },
  { step: 'boot_instance', priority: 20 },
];

/** The clean steps of the agent (IPA's generic hardware manager) with their default priorities. */
export const AGENT_CLEAN_STEPS: readonly DefaultStep[] = [
  { step: 'erase_devices_metadata', priority: 99 },
  { step: 'erase_devices', priority: 10 },
];

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** InvalidParameterValue when `properties.root_device` holds hints the agent could not use. */
function validateRootDeviceHints(node: Readonly<Node>): void {
  try {
    parseRootDeviceHints(node.properties.root_device ?? null);
  } catch (err) {
    throw fail('InvalidParameterValue', `Node ${node.uuid}: properties.root_device is invalid: ${messageOf(err)}`);
  }
}

/**
 * What `direct` needs in instance_info: `image_source` (http(s):// or file://) and, for http(s) images,
 * a checksum (`image_os_hash_algo` + `image_os_hash_value`, or `image_checksum`) — Ironic's rule for
 * images that are not in Glance.
 */
export function validateInstanceImage(node: Readonly<Node>): void {
  const info = node.instance_info;
  const source = text(info.image_source);
  if (!source) {
    throw fail('MissingParameterValue', `Node ${node.uuid} is missing instance_info.image_source: set it to the http(s):// or file:// URL of the image to deploy.`);
  }
  if (!/^(https?|file):\/\//i.test(source) || /\s/.test(source)) {
    throw fail('InvalidParameterValue', `instance_info.image_source of node ${node.uuid} must be an http(s):// or file:// URL, not "${source}".`);
  }
  const hasChecksum = text(info.image_os_hash_value) !== '' || text(info.image_checksum) !== '';
  if (/^https?:/i.test(source) && !hasChecksum) {
    throw fail(
      'MissingParameterValue',
      `Node ${node.uuid}: an http(s) image needs a checksum: set instance_info.image_os_hash_algo and image_os_hash_value (or image_checksum), a digest or the URL of a checksum file.`,
    );
  }
  if (text(info.image_os_hash_value) !== '' && text(info.image_os_hash_algo) === '' && !/^https?:\/\//i.test(text(info.image_os_hash_value))) {
    throw fail('MissingParameterValue', `Node ${node.uuid}: instance_info.image_os_hash_value needs image_os_hash_algo (sha256 or sha512).`);
  }
}

const PROPERTIES: Readonly<Record<string, string>> = {
  deploy_forces_oob_reboot: 'Ignored: Ingot always powers the machine off and on through its BMC after writing the image. Optional.',
  fast_track: 'Whether the agent keeps running after inspection and cleaning, so the next cleaning or deployment skips the ramdisk boot (true/false). Optional; default conductor.fast_track.',
};

/** InvalidParameterValue when driver_info `fast_track` is set to something that is no boolean. */
function validateFastTrack(node: Readonly<Node>): void {
  const value = node.driver_info.fast_track;
  if (value !== undefined && value !== null) toBool('driver_info fast_track', value);
}

const noop = async (_task: DriverTask): Promise<void> => undefined;

/** The `direct` deploy interface: the agent writes the image to the root disk (see module doc). */
export function directDeploy(): DeployInterface {
  return {
    name: 'direct',
    properties: PROPERTIES,
    waitsForAgent: true,
    cleansWithAgent: true,
    deploySteps: AGENT_DEPLOY_STEPS,
    cleanSteps: AGENT_CLEAN_STEPS,
    validate(task) {
      validateInstanceImage(task.node);
      validateRootDeviceHints(task.node);
      validateFastTrack(task.node);
    },
    prepare: noop,
    deploy: async () => 'wait',
    tearDown: noop,
    cleanUp: noop,
    takeOver: noop,
    prepareCleaning: async () => 'wait',
    tearDownCleaning: noop,
  };
}

/** The `ramdisk` deploy interface: the instance is a kernel and ramdisk booted over the network; nothing is written. */
export function ramdiskDeploy(): DeployInterface {
  return {
    name: 'ramdisk',
    properties: PROPERTIES,
    cleansWithAgent: true,
    cleanSteps: AGENT_CLEAN_STEPS,
    validate(task) {
      instanceImages(task.node);
      validateRootDeviceHints(task.node);
      validateFastTrack(task.node);
    },
    prepare: noop,
    deploy: async () => 'done',
    tearDown: noop,
    cleanUp: noop,
    takeOver: noop,
    prepareCleaning: async () => 'wait',
    tearDownCleaning: noop,
  };
}
