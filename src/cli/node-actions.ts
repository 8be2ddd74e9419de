/**
 * Node actions that move state: the provision verbs (`ingot node deploy …`) and power
 * (`ingot node power on|off|reboot`), each with `--wait [SECONDS]`.
 */
import type { Command } from 'commander';
import type { WireNode, WirePowerRequest, WireProvisionRequest } from '../protocol/client/wire.js';
import { fail } from '../shared/errors.js';
import { action, withCommon } from './context.js';
import type { ClientIo, RunContext } from './context.js';
import { configDriveArg, jsonArg, parseCount } from './values.js';
import { nodePath } from './node-crud.js';
import { pollNode, waitForNode, waitSeconds } from './wait.js';
import type { WaitSpec } from './wait.js';

/** A provision verb of the client: the API target it sends and the state it should end in. */
interface VerbSpec {
  /** API `target`; `legacy` is sent instead when the requested microversion is older than `since`. */
  target: string;
  legacy?: { target: string; before: number };
  /** Stable state the node should reach; `undefined` for any, `'target'` for the node's current target. */
  expected?: string | 'target';
  acceptFailure?: boolean;
  options?: ('config-drive' | 'deploy-steps' | 'clean-steps' | 'service-steps' | 'rescue-password' | 'disable-ramdisk')[];
  required?: string[];
  help: string;
}

/** The provision verbs, named as in the `baremetal` CLI. */
export const PROVISION_VERBS: Record<string, VerbSpec> = {
  manage: { target: 'manage', expected: 'manageable', help: 'Move a node to manageable (verifies its driver)' },
  provide: { target: 'provide', expected: 'available', help: 'Make a node available (runs automated cleaning)' },
  inspect: { target: 'inspect', expected: 'manageable', help: 'Inspect the hardware of a node' },
  deploy: {
    target: 'deploy', legacy: { target: 'active', before: 73 }, expected: 'active',
    options: ['config-drive', 'deploy-steps'], help: 'Deploy an instance image to a node',
  },
  rebuild: { target: 'rebuild', expected: 'active', options: ['config-drive', 'deploy-steps'], help: 'Redeploy a node' },
  undeploy: { target: 'undeploy', legacy: { target: 'deleted', before: 73 }, expected: 'available', help: 'Tear down a deployed node' },
  clean: {
    target: 'clean', expected: 'manageable', options: ['clean-steps', 'disable-ramdisk'], required: ['clean-steps'],
    help: 'Run manual cleaning steps',
  },
  abort: { target: 'abort', acceptFailure: true, help: 'Abort the running operation of a node' },
  adopt: { target: 'adopt', expected: 'active', help: 'Adopt a node that runs an instance already' },
  rescue: {
    target: 'rescue', expected: 'rescue', options: ['rescue-password'], required: ['rescue-password'],
    help: 'Boot a node into the rescue ramdisk',
  },
  unrescue: { target: 'unrescue', expected: 'active', help: 'Leave rescue mode' },
  service: {
    target: 'service', expected: 'active', options: ['service-steps', 'disable-ramdisk'], required: ['service-steps'],
    help: 'Run service steps on a deployed node',
  },
  unhold: { target: 'unhold', expected: 'target', help: 'Continue the steps of a held node' },
};

const OPTION_HELP: Record<string, [flag: string, help: string]> = {
  'config-drive': ['--config-drive <drive>', 'config drive: JSON object ({…} or @file), URL or gzipped base64'],
  'deploy-steps': ['--deploy-steps <json>', 'deploy steps: JSON list or @file'],
  'clean-steps': ['--clean-steps <json>', 'clean steps: JSON list or @file'],
  'service-steps': ['--service-steps <json>', 'service steps: JSON list or @file'],
  'rescue-password': ['--rescue-password <password>', 'password for the rescue ramdisk'],
  'disable-ramdisk': ['--disable-ramdisk', 'run the steps without booting the ramdisk'],
};

interface ActionOptions {
  wait?: string | boolean;
  configDrive?: string;
  deploySteps?: string;
  cleanSteps?: string;
  serviceSteps?: string;
  rescuePassword?: string;
  disableRamdisk?: boolean;
  soft?: boolean;
  powerTimeout?: string;
}

/**
 * The node argument and `--wait` seconds. `--wait` takes an optional value, so `--wait node-1` reads
 * the node name as the value; a non-numeric value is taken back as the node.
 */
export function nodeAndWait(node: string | undefined, wait: string | boolean | undefined): { node: string; wait: number | undefined } {
  if (node === undefined && typeof wait === 'string' && !/^\d+(\.\d+)?$/.test(wait)) return { node: wait, wait: 0 };
  if (node === undefined) throw fail('nodeArgumentMissing');
  return { node, wait: waitSeconds(wait) };
}

/** Adds every provision verb to `node`. */
export function addProvisionVerbs(node: Command, io: ClientIo): void {
  for (const [verb, spec] of Object.entries(PROVISION_VERBS)) {
    const cmd = withCommon(node.command(verb).description(spec.help).argument('[node]', 'node UUID or name'));
    cmd.option('--wait [seconds]', 'wait until the node settles (optional timeout in seconds; 0 or none: no timeout)');
    for (const o of spec.options ?? []) {
      const [flag, help] = OPTION_HELP[o] as [string, string];
      cmd.option(flag, help + (spec.required?.includes(o) ? ' (required)' : ''));
    }
    cmd.action(
      action<ActionOptions>(io, async (ctx, [arg], o) => {
        const { node: ident, wait } = nodeAndWait(arg as string | undefined, o.wait);
        const body: WireProvisionRequest = { target: spec.legacy && ctx.client.minor < spec.legacy.before ? spec.legacy.target : spec.target };
        if (o.configDrive !== undefined) body.configdrive = await configDriveArg(o.configDrive);
        if (o.deploySteps !== undefined) body.deploy_steps = await jsonArg(o.deploySteps, '--deploy-steps');
        if (o.cleanSteps !== undefined) body.clean_steps = await jsonArg(o.cleanSteps, '--clean-steps');
        if (o.serviceSteps !== undefined) body.service_steps = await jsonArg(o.serviceSteps, '--service-steps');
        if (o.rescuePassword !== undefined) body.rescue_password = o.rescuePassword;
        if (o.disableRamdisk) body.disable_ramdisk = true;
        for (const r of spec.required ?? []) {
          if (!(r.replace(/-/g, '_') in body)) throw fail('verbOptionRequired', { verb, option: r });
        }
        await act(ctx, ident, wait, 'states/provision', body, (before) => ({
          kind: 'provision',
          expected: spec.expected === 'target' ? (before.target_provision_state ?? undefined) : spec.expected,
          acceptFailure: spec.acceptFailure ?? false,
          timeoutSeconds: wait ?? 0,
        }));
      }),
    );
  }
}

/** Adds `power on|off|reboot` to `node`. */
export function addPower(node: Command, io: ClientIo): void {
  const power = node.command('power').description('Power a node on, off or reboot it');
  const verbs = [
    ['on', 'Power a node on', 'power on', 'power on'],
    ['off', 'Power a node off', 'power off', 'power off'],
    ['reboot', 'Reboot a node', 'rebooting', 'power on'],
  ] as const;
  for (const [name, help, target, expected] of verbs) {
    const cmd = withCommon(power.command(name).description(help).argument('[node]', 'node UUID or name'))
      .option('--power-timeout <seconds>', 'seconds the driver may take')
      .option('--wait [seconds]', 'wait until the power state settles (optional timeout in seconds)');
    if (name !== 'on') cmd.option('--soft', 'ask the operating system to shut down (ACPI)');
    cmd.action(
      action<ActionOptions>(io, async (ctx, [arg], o) => {
        const { node: ident, wait } = nodeAndWait(arg as string | undefined, o.wait);
        const soft = o.soft ? (name === 'off' ? 'soft power off' : 'soft rebooting') : undefined;
        const body: WirePowerRequest = { target: soft ?? target };
        if (o.powerTimeout !== undefined) body.timeout = parseCount(o.powerTimeout, '--power-timeout');
        await act(ctx, ident, wait, 'states/power', body, () => ({ kind: 'power', expected, timeoutSeconds: wait ?? 0 }));
      }),
    );
  }
}

/** Sends the action; with `--wait`, reads the node first and polls it afterwards. */
async function act(
  ctx: RunContext, ident: string, wait: number | undefined, path: string, body: object, spec: (before: WireNode) => WaitSpec,
): Promise<void> {
  const before = wait === undefined ? undefined : await pollNode(ctx, ident);
  await ctx.client.request('PUT', nodePath(ident, ...path.split('/')), body);
  if (before) await waitForNode(ctx, ident, before, spec(before));
}
