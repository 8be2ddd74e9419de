/**
 * Out-of-band management calls beyond the boot device: `PUT …/management/inject_nmi` (synchronous, under
 * the node lock), `PUT …/states/boot_mode` (accepted once the node is locked, checked and a worker
 * reserved; the worker sets the mode and records it in `boot_mode`, or writes last_error),
 * `PUT …/states/secure_boot`, and virtual media (`GET` under a shared lock; `POST`/`DELETE …/vmedia`
 * accepted as the boot mode is, the worker writing a failure to last_error). Rules as Ironic's conductor
 * (`inject_nmi`, `change_node_boot_mode`, `utils.node_change_boot_mode`, `get_virtual_media`,
 * `attach_virtual_media`, `detach_virtual_media`, `utils.run_node_action`) and API
 * (`NodeStatesController.boot_mode`, `NodeVmediaController`).
 */
import type { Node } from '../../domain/node.js';
import { TRANSITIONING_STATES } from '../../domain/states.js';
import { unsupported, type DriverTask } from '../../drivers/interfaces/base.js';
import type { BootMode, ManagementInterface, VirtualMediaInfo, VmediaDeviceType } from '../../drivers/interfaces/management.js';
import { fail, IngotError, messageOf } from '../../shared/errors.js';
import type { VirtualMediaAttach } from '../client.js';
import type { ConductorContext } from '../context.js';
import { POWER_FAILURE } from '../periodics/power-sync.js';
import { Task, withTask } from '../task.js';
import { reserveWorker, startNodeAction } from './run.js';

/** Throws InvalidState (409) while the node is transitioning (Ironic answers 409 Conflict). */
export function refuseWhileTransitioning(node: Readonly<Node>, what: 'boot mode' | 'secure boot state'): void {
  if (TRANSITIONING_STATES.includes(node.provision_state)) {
    throw fail('bootSettingWhileTransitioning', { node: node.uuid, state: node.provision_state, setting: what });
  }
}

/**
 * Sends an NMI through the node's management interface, under the node lock. UnsupportedDriverExtension
 * when the interface has no NMI; a failure that is not already an IngotError is a DriverOperationError.
 */
export async function injectNmi(ctx: ConductorContext, ident: string): Promise<void> {
  await withTask(ctx, ident, {}, async (task) => {
    const dt = task.driverTask();
    const management = task.driver.management;
    await management.validate(dt);
    if (!management.injectNmi) throw unsupported(dt, 'inject_nmi');
    try {
      await management.injectNmi(dt);
    } catch (err) {
      if (err instanceof IngotError) throw err;
      throw fail('nmiFailed', { node: task.node.uuid, reason: messageOf(err) }, { cause: err });
    }
    await task.save();
    ctx.logger.info({ node: task.node.uuid }, `node ${task.node.uuid}: NMI injected`);
  });
}

/**
 * Starts a boot mode change: refused while the node is transitioning (InvalidState), for a mode the
 * interface does not offer (InvalidParameterValue) and for an interface without boot modes
 * (UnsupportedDriverExtension). Once accepted, last_error is cleared and a worker sets the mode unless
 * the machine reports it already, then records it in `boot_mode`; a failure goes to last_error.
 */
export async function changeBootMode(ctx: ConductorContext, ident: string, mode: BootMode): Promise<void> {
  const task = await Task.acquire(ctx, ident);
  let handedOver = false;
  try {
    refuseWhileTransitioning(task.node, 'boot mode');
    const dt = task.driverTask();
    const management = task.driver.management;
    await management.validate(dt);
    if (!management.setBootMode || !management.getSupportedBootModes) throw unsupported(dt, 'set_boot_mode');
    const setBootMode = management.setBootMode.bind(management);
    const getBootMode = management.getBootMode?.bind(management);
    const supported = await management.getSupportedBootModes(dt).catch((err: unknown) => {
      // Name the call the client made, not the query behind it (noop refuses both).
      throw err instanceof IngotError && err.code === 'UnsupportedDriverExtension' ? unsupported(dt, 'set_boot_mode') : err;
    });
    if (!supported.includes(mode)) {
      throw fail('bootModeNotSupported', { mode, iface: management.name, node: task.node.uuid, supported: supported.join(', ') });
    }
    const slot = await reserveWorker(task, `boot mode ${mode} ${task.node.uuid}`, { last_error: null });
    const before = task.node.boot_mode;
    startNodeAction(task, slot, {
      eventType: 'management',
      abandoned: `Boot mode change to "${mode}" was abandoned: the conductor ${ctx.hostname} stopped. Check the boot mode and retry.`,
      describe: (err) => `Failed to change boot mode to '${mode}': ${messageOf(err)}`,
      run: async (signal) => {
        const d = task.driverTask(signal);
        let current: BootMode | null = null;
        try {
          current = getBootMode ? await getBootMode(d) : null;
        } catch (err) {
          // As Ironic: an unreadable mode is no reason not to set it.
          ctx.logger.warn({ err, node: task.node.uuid }, `could not read the boot mode before changing it: ${messageOf(err)}`);
        }
        if (current !== mode) await setBootMode(d, mode);
        task.set({ boot_mode: mode });
        await task.save();
        if (before !== mode) await task.record('management', `boot mode ${before ?? 'None'} -> ${mode}`, 'INFO', null);
      },
    });
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}

/**
 * `PUT …/states/secure_boot`: checked as Ironic checks it (transitioning nodes refused, management
 * validated); no management interface of Ingot turns secure boot on or off yet, so every node is then
 * refused with UnsupportedDriverExtension.
 */
export async function changeSecureBoot(ctx: ConductorContext, ident: string, _enabled: boolean): Promise<void> {
  await withTask(ctx, ident, {}, async (task) => {
    refuseWhileTransitioning(task.node, 'secure boot state');
    const dt = task.driverTask();
    await task.driver.management.validate(dt);
    throw unsupported(dt, 'set_secure_boot_state');
  });
}

/**
 * `GET …/vmedia`: the management interface's virtual media, under a shared lock after validating it.
 * UnsupportedDriverExtension when the interface has none.
 */
export async function getVirtualMedia(ctx: ConductorContext, ident: string): Promise<VirtualMediaInfo[]> {
  return withTask(ctx, ident, { shared: true }, async (task) => {
    const dt = task.driverTask();
    const management = task.driver.management;
    await management.validate(dt);
    if (!management.getVirtualMedia) throw unsupported(dt, 'get_virtual_media');
    try {
      return await management.getVirtualMedia(dt);
    } catch (err) {
      // A failure that is not already an IngotError is a DriverOperationError.
      if (err instanceof IngotError) throw err;
      throw fail('vmediaReadFailed', { node: task.node.uuid, reason: messageOf(err) }, { cause: err });
    }
  });
}

/** How Ironic prints a device type list in its messages (a Python list, or None). */
function pythonList(types: readonly string[] | undefined): string {
  return types === undefined ? 'None' : `[${types.map((t) => `'${t}'`).join(', ')}]`;
}

/**
 * Accepts a virtual media job as Ironic's conductor does: under the node lock, management validated
 * (InvalidParameterValue), refused while the node is in maintenance for a power failure, a worker
 * reserved (NoFreeConductorWorkers) and last_error cleared; the worker runs `job` still holding the lock
 * and writes a failure to last_error and the history (`utils.run_node_action`).
 */
async function startVmediaJob(
  ctx: ConductorContext,
  ident: string,
  what: { operation: 'attach' | 'detach'; extension: string },
  job: (management: Required<Pick<ManagementInterface, 'attachVirtualMedia' | 'detachVirtualMedia'>>, d: DriverTask) => Promise<void>,
  errorText: (node: Readonly<Node>, message: string) => string,
): Promise<void> {
  const task = await Task.acquire(ctx, ident);
  let handedOver = false;
  try {
    const dt = task.driverTask();
    const management = task.driver.management;
    await management.validate(dt);
    // NOTE: Ironic accepts the request (204) and lets its base class refuse it in the worker, which ends
    // in last_error; Ingot refuses at once, as for inject_nmi and boot modes.
    if (!management.attachVirtualMedia || !management.detachVirtualMedia) throw unsupported(dt, what.extension);
    const methods = {
      attachVirtualMedia: management.attachVirtualMedia.bind(management),
      detachVirtualMedia: management.detachVirtualMedia.bind(management),
    };
    if (task.node.maintenance && task.node.fault === POWER_FAILURE) {
      // NOTE: Ironic raises TemporaryFailure (503) here; Ingot's error table has no such code.
      throw fail('vmediaPowerFailure', { operation: what.operation, node: task.node.uuid });
    }
    const slot = await reserveWorker(task, `${what.operation} virtual media ${task.node.uuid}`, { last_error: null });
    startNodeAction(task, slot, {
      eventType: 'management',
      abandoned: `Virtual media ${what.operation} was abandoned: the conductor ${ctx.hostname} stopped. Check the node's virtual media and retry.`,
      describe: (err) => errorText(task.node, messageOf(err)),
      run: async (signal) => {
        await job(methods, task.driverTask(signal));
        await task.save();
        ctx.logger.info({ node: task.node.uuid }, `node ${task.node.uuid}: virtual media ${what.operation} done`);
      },
    });
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}

/**
 * `POST …/vmedia`: attaches `request.image_url` as a `request.device_type` device in a worker.
 * `image_download_source` `http` and `local` both hand the URL to the BMC as it is: Ingot has no image
 * server of its own to re-publish the image from (Ironic's `local` does); `swift` fails in the worker
 * as there is no Object Storage service to publish to.
 */
export async function attachVirtualMedia(ctx: ConductorContext, ident: string, request: VirtualMediaAttach): Promise<void> {
  const { device_type: deviceType, image_url: imageUrl, image_download_source: source } = request;
  await startVmediaJob(
    ctx,
    ident,
    { operation: 'attach', extension: 'attach_virtual_media' },
    async (m, d) => {
      if (source === 'swift') {
        throw fail('vmediaSwiftUnsupported');
      }
      await m.attachVirtualMedia(d, deviceType, imageUrl);
    },
    (node, message) => `Could not attach device ${deviceType} to node ${node.uuid}: ${message}`,
  );
}

/** `DELETE …/vmedia`: ejects the media of `deviceTypes` (every device when undefined) in a worker. */
export async function detachVirtualMedia(ctx: ConductorContext, ident: string, deviceTypes?: readonly VmediaDeviceType[]): Promise<void> {
  await startVmediaJob(
    ctx,
    ident,
    { operation: 'detach', extension: 'detach_virtual_media' },
    (m, d) => m.detachVirtualMedia(d, deviceTypes),
    (node, message) => `Could not detach device(s) ${pythonList(deviceTypes)} from node ${node.uuid}: ${message}`,
  );
}
