/**
 * Fake boot, deploy, inspect and rescue: they only wait their `fake_<iface>_delay`. The fake deploy ends
 * its flows as the real ones do, so that fake nodes pass through the same power states: a deployment
 * boots the instance (boot-instance.ts), cleaning ends as in-band cleaning does (the machine off, or left
 * on for an agent that keeps running with fast track).
 */
import { tearDownInbandCleaning } from '../agent/ramdisk.js';
import { bootInstance } from '../boot-instance.js';
import type { BootInterface } from '../interfaces/boot.js';
import type { DriverTask, FlowStep } from '../interfaces/base.js';
import type { DeployInterface } from '../interfaces/deploy.js';
import type { InspectInterface } from '../interfaces/inspect.js';
import type { RescueInterface } from '../interfaces/rescue.js';
import { delayProperty, fakeDelay, validateDelay } from './delay.js';

export function fakeBoot(): BootInterface {
  const wait = (task: Parameters<BootInterface['prepareInstance']>[0]) => fakeDelay(task, 'boot');
  return {
    name: 'fake',
    properties: delayProperty('boot'),
    validate: (task) => validateDelay(task, 'boot'),
    prepareRamdisk: wait,
    cleanUpRamdisk: wait,
    prepareInstance: wait,
    cleanUpInstance: wait,
  };
}

export function fakeDeploy(): DeployInterface {
  const deploy = async (task: DriverTask): Promise<'done'> => {
    await fakeDelay(task, 'deploy');
    return 'done';
  };
  return {
    name: 'fake',
    properties: delayProperty('deploy'),
    validate: (task) => validateDelay(task, 'deploy'),
    prepare: (task) => fakeDelay(task, 'deploy'),
    deploy,
    finishDeploy: bootInstance,
    tearDown: (task) => fakeDelay(task, 'deploy'),
    cleanUp: (task) => fakeDelay(task, 'deploy'),
    takeOver: (task) => fakeDelay(task, 'deploy'),
    async prepareCleaning(task) {
      await fakeDelay(task, 'deploy');
      return 'done';
    },
    async tearDownCleaning(task) {
      await fakeDelay(task, 'deploy');
      await tearDownInbandCleaning(task);
    },
    flowSteps: (_task, kind): Readonly<Record<string, FlowStep>> => (kind === 'deploy' ? { deploy: { priority: 100, run: deploy } } : {}),
    steps: {
      erase_devices: (task) => fakeDelay(task, 'deploy'),
      erase_devices_metadata: (task) => fakeDelay(task, 'deploy'),
    },
  };
}

export function fakeInspect(): InspectInterface {
  return {
    name: 'fake',
    properties: delayProperty('inspect'),
    validate: (task) => validateDelay(task, 'inspect'),
    async inspectHardware(task) {
      await fakeDelay(task, 'inspect');
      return 'done';
    },
  };
}

export function fakeRescue(): RescueInterface {
  return {
    name: 'fake',
    properties: delayProperty('rescue'),
    validate: (task) => validateDelay(task, 'rescue'),
    async rescue(task) {
      await fakeDelay(task, 'rescue');
      return 'done';
    },
    unrescue: (task) => fakeDelay(task, 'rescue'),
  };
}
