/**
 * `PUT …/states/provision`: checks the request under the node lock (state, maintenance, protection,
 * required arguments, driver validation — all answered synchronously as 4xx), reserves a worker, makes
 * the first transition and runs the slow part in the worker. Resolves once the work is accepted.
 */
import type { JsonObject } from '../../domain/node.js';
import { S, transition, VERBS, type ProvisionEvent, type ProvisionState, type ProvisionVerb } from '../../domain/states.js';
import type { DriverInterface } from '../../drivers/interfaces/base.js';
import { fail, IngotError, messageOf } from '../../shared/errors.js';
import type { RequestedStep } from '../../protocol/api/steps.js';
import { checkConfigDrive } from '../agent-image.js';
import type { ProvisionOptions } from '../client.js';
import type { ConductorContext } from '../context.js';
import { Task } from '../task.js';
import { abortAction, unholdAction } from './abort-unhold.js';
import * as phase from './phases.js';
import { startFlow } from './run.js';
import { checkStepsAvailable, requestedSteps, type Step } from './steps.js';

/** Transitions of the table the conductor makes itself, never on request. */
const INTERNAL_ONLY: ReadonlyArray<[ProvisionState, ProvisionEvent]> = [[S.CLEANING, 'manage']];

/** Verbs refused while the node is in maintenance, with the operation Ironic's NodeInMaintenance names. */
const MAINTENANCE_OPERATIONS: Readonly<Partial<Record<ProvisionVerb, string>>> = {
  active: 'provisioning', deploy: 'provisioning', rebuild: 'provisioning', clean: 'cleaning', rescue: 'rescuing',
  unrescue: 'unrescuing', service: 'service', provide: 'providing',
};

/** Refuses `verb` on a node in maintenance. */
function refuseInMaintenance(verb: ProvisionVerb, task: Task): void {
  const operation = MAINTENANCE_OPERATIONS[verb];
  if (task.node.maintenance && operation) {
    throw fail('NodeInMaintenance', { op: operation, node: task.node.uuid });
  }
}

/** Verbs a protected node refuses. */
const PROTECTED_REFUSES: ReadonlySet<ProvisionVerb> = new Set(['rebuild', 'deleted', 'undeploy']);

function invalidState(verb: string, task: Task): IngotError {
  return fail('InvalidStateRequested', { action: verb, node: task.node.uuid, state: task.node.provision_state });
}

async function validateAll(task: Task, what: string, ifaces: Array<keyof Task['driver'] & string>): Promise<void> {
  const dt = task.driverTask();
  const errors: string[] = [];
  for (const name of ifaces) {
    try {
      await (task.driver[name as 'power'] as DriverInterface).validate(dt);
    } catch (err) {
      if (err instanceof IngotError && err.code === 'UnsupportedDriverExtension') throw err;
      errors.push(`${name}: ${messageOf(err)}`);
    }
  }
  if (errors.length > 0) {
    throw fail('validationFailed', { what, node: task.node.uuid, errors: errors.join('; ') });
  }
}

/**
 * The steps a manual clean or a service runs. The API always sends them (and has checked them); a caller
 * of the contract that leaves them out is refused rather than given an empty flow.
 */
function stepsOf(steps: RequestedStep[] | undefined, verb: 'clean' | 'service'): RequestedStep[] {
  if (steps === undefined) throw fail('requiredForTarget', { field: `${verb}_steps`, target: verb });
  return steps;
}

type Slow = (signal: AbortSignal) => Promise<void>;

/**
 * Checks and begins `verb` on a locked task: returns the slow part to run in a worker, or null when the
 * action completed synchronously.
 */
async function begin(task: Task, verb: ProvisionVerb, options: ProvisionOptions): Promise<Slow | null> {
  const node = task.node;
  const event = VERBS[verb].event;
  switch (verb) {
    case 'manage':
      if (node.provision_state === S.ENROLL) {
        await task.process('manage', { lastError: null });
        return (signal) => phase.verify(task, signal);
      }
      await task.process('manage');
      return null;
    case 'inspect':
      await validateAll(task, 'power and inspect interfaces', ['power', 'inspect']);
      await task.process('inspect', { lastError: null });
      return (signal) => phase.inspect(task, signal);
    case 'provide':
      await task.process('provide', { lastError: null });
      return (signal) => phase.clean(task, signal, null);
    case 'clean': {
      const steps = requestedSteps(stepsOf(options.clean_steps, 'clean'));
      checkStepsAvailable(task, 'clean', steps);
      await validateAll(task, 'power and management interfaces', ['power', 'management']);
      await task.process('clean', { lastError: null, target: S.MANAGEABLE });
      return (signal) => phase.clean(task, signal, steps);
    }
    case 'active':
    case 'deploy':
    case 'rebuild': {
      const steps: Step[] = requestedSteps(options.deploy_steps ?? []);
      checkStepsAvailable(task, 'deploy', steps);
      await checkConfigDrive(task.ctx, node, options.configdrive);
      await validateAll(task, 'deploy or power info', ['power', 'deploy', 'boot', 'network', 'storage']);
      const info: JsonObject = { ...node.instance_info };
      if (options.configdrive !== undefined) info['configdrive'] = options.configdrive;
      task.set({ instance_info: info });
      await task.process(event, { lastError: null });
      return (signal) => phase.deploy(task, signal, steps);
    }
    case 'deleted':
    case 'undeploy':
      await validateAll(task, 'power info', ['power']);
      await task.process('delete', { lastError: null });
      return (signal) => phase.tearDown(task, signal);
    case 'adopt':
      await validateAll(task, 'deploy or power info', ['power', 'boot', 'deploy']);
      await task.process('adopt', { lastError: null });
      return (signal) => phase.adopt(task, signal);
    case 'rescue': {
      const password = options.rescue_password ?? null;
      await validateAll(task, 'rescue and power interfaces', ['power', 'rescue']);
      task.set({ instance_info: { ...node.instance_info, rescue_password: password } });
      await task.process('rescue', { lastError: null });
      return (signal) => phase.rescue(task, signal);
    }
    case 'unrescue':
      await validateAll(task, 'rescue and power interfaces', ['power', 'rescue']);
      await task.process('unrescue', { lastError: null });
      return (signal) => phase.unrescue(task, signal);
    case 'service': {
      const steps = requestedSteps(stepsOf(options.service_steps, 'service'));
      checkStepsAvailable(task, 'service', steps);
      await task.process('service', { lastError: null });
      return (signal) => phase.service(task, signal, steps);
    }
    case 'abort':
      await abortAction(task);
      return null;
    case 'unhold':
      return unholdAction(task);
  }
}

/** Handles `verb` on node `ident` (see module doc). */
export async function doProvisionAction(ctx: ConductorContext, ident: string, verb: ProvisionVerb, options: ProvisionOptions): Promise<void> {
  const task = await Task.acquire(ctx, ident);
  let handedOver = false;
  try {
    const node = task.node;
    const event = VERBS[verb].event;
    const internal = INTERNAL_ONLY.some(([s, e]) => s === node.provision_state && e === event);
    // As Ironic: a deployment in maintenance is refused before its state is looked at, the other verbs after.
    if (event === 'deploy' || event === 'rebuild') refuseInMaintenance(verb, task);
    if (!transition(node.provision_state, event) || internal) throw invalidState(verb, task);
    refuseInMaintenance(verb, task);
    if (node.protected && PROTECTED_REFUSES.has(verb)) {
      throw fail('NodeProtected', { node: node.uuid });
    }
    const slot = ctx.pool.reserve(`${verb} ${node.uuid}`);
    let slow: Slow | null;
    try {
      slow = await begin(task, verb, options);
    } catch (err) {
      slot.cancel();
      throw err;
    }
    if (!slow) {
      slot.cancel();
      return;
    }
    startFlow(task, slot, `${verb} ${node.uuid}`, phase.provisionFailureHandlers(task, slow));
    handedOver = true;
  } finally {
    if (!handedOver) await task.release();
  }
}
