/**
 * The deploy interfaces of Ingot's agent (Ironic's `direct` — `agent.AgentDeploy` — and `ramdisk`). The
 * agent flow lives here, in the drivers: `direct` owns its deploy steps (deploy-steps.ts), its in-band
 * clean steps (in-band-steps.ts), the ramdisk it boots and ends (ramdisk.ts), fast track (fast-track.ts)
 * and what a heartbeat does to the flow waiting for the agent (heartbeat.ts). The conductor runs the
 * steps as any interface's, resumes the saved steps when the heartbeat handling says so, and knows none
 * of this. `ramdisk` boots the instance's own kernel and ramdisk and writes nothing. Both clean through
 * the agent: `erase_devices_metadata` (99) and `erase_devices` (10, switched off by the conductor's
 * default `erase_devices_priority` of 0).
 */
import type { Node } from '../../domain/node.js';
import { parseRootDeviceHints } from '../../protocol/agent/root-device-hints.js';
import { fail, messageOf } from '../../shared/errors.js';
import { toBool } from '../../shared/strict-bool.js';
import { bootInstance } from '../boot-instance.js';
import type { DriverTask, FlowStep } from '../interfaces/base.js';
import type { DeployInterface } from '../interfaces/deploy.js';
import { instanceImages } from '../network-boot/boot-info.js';
import { DIRECT_DEPLOY_STEPS, deployWithAgent, imageWritten } from './deploy-steps.js';
import { agentHeartbeat } from './heartbeat.js';
import { agentCleanSteps } from './in-band-steps.js';
import { prepareInbandCleaning, tearDownInbandCleaning } from './ramdisk.js';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** InvalidParameterValue when `properties.root_device` holds hints the agent could not use. */
function validateRootDeviceHints(node: Readonly<Node>): void {
  try {
    parseRootDeviceHints(node.properties.root_device ?? null);
  } catch (err) {
    throw fail('rootDeviceHintsInvalid', { node: node.uuid, reason: messageOf(err) });
  }
}

/**
 * What `direct` needs in instance_info: `image_source` (http(s):// or file://) and a checksum
 * (`image_os_hash_algo` + `image_os_hash_value`, or `image_checksum`). Ironic asks it of http(s) images
 * only; Ingot of file:// images too, so that what is deployed is what the user meant and not whatever
 * file happens to sit at the path.
 */
export function validateInstanceImage(node: Readonly<Node>): void {
  const info = node.instance_info;
  const source = text(info.image_source);
  if (!source) {
    throw fail('imageSourceMissing', { node: node.uuid });
  }
  if (!/^(https?|file):\/\//i.test(source) || /\s/.test(source)) {
    throw fail('imageSourceNotUrl', { node: node.uuid, source });
  }
  const hasChecksum = text(info.image_os_hash_value) !== '' || text(info.image_checksum) !== '';
  if (!hasChecksum) {
    throw fail('imageChecksumMissing', { node: node.uuid });
  }
  if (text(info.image_os_hash_value) !== '' && text(info.image_os_hash_algo) === '' && !/^https?:\/\//i.test(text(info.image_os_hash_value))) {
    throw fail('imageHashAlgoMissing', { node: node.uuid });
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
    validate(task) {
      validateInstanceImage(task.node);
      validateRootDeviceHints(task.node);
      validateFastTrack(task.node);
    },
    prepare: noop,
    deploy: deployWithAgent,
    // Its own steps prepared the instance's boot, switched the network and powered the machine on.
    finishDeploy: noop,
    tearDown: noop,
    cleanUp: (task) => task.agent.releaseImage(task.node),
    takeOver: noop,
    prepareCleaning: prepareInbandCleaning,
    tearDownCleaning: tearDownInbandCleaning,
    flowSteps: (task, kind) => (kind === 'deploy' ? DIRECT_DEPLOY_STEPS : kind === 'clean' ? agentCleanSteps(task) : {}),
    heartbeat: agentHeartbeat(['deploy', 'clean'], { prepare_image: imageWritten }),
  };
}

/** The `ramdisk` deploy interface: the instance is a kernel and ramdisk booted over the network; nothing is written. */
export function ramdiskDeploy(): DeployInterface {
  const deploy = async (): Promise<'done'> => 'done';
  return {
    name: 'ramdisk',
    properties: PROPERTIES,
    validate(task) {
      instanceImages(task.node);
      validateRootDeviceHints(task.node);
      validateFastTrack(task.node);
    },
    prepare: noop,
    deploy,
    finishDeploy: bootInstance,
    tearDown: noop,
    cleanUp: noop,
    takeOver: noop,
    prepareCleaning: prepareInbandCleaning,
    tearDownCleaning: tearDownInbandCleaning,
    flowSteps: (task, kind): Readonly<Record<string, FlowStep>> => (kind === 'deploy' ? { deploy: { priority: 100, run: deploy } } : kind === 'clean' ? agentCleanSteps(task) : {}),
    heartbeat: agentHeartbeat(['clean']),
  };
}
