/** Runs a boot interface's conformance suite on a node that carries deploy images. */
import type { DriverTask } from '../interfaces/base.js';
import type { BootInterface } from '../interfaces/boot.js';
import { DEPLOY_INFO, type FakeEnv } from './env.test-support.js';

/**
 * `boot` with every task's node given {@link DEPLOY_INFO} and the ports of `env`: the suite's sample
 * node has empty driver_info and no port, which a network boot rightly refuses.
 */
export function withDeployImages(boot: BootInterface, env: FakeEnv): BootInterface {
  const t = (task: DriverTask): DriverTask => ({
    ...task,
    get node() {
      return { ...task.node, driver_info: { ...DEPLOY_INFO, ...task.node.driver_info } };
    },
    ports: async () => env.portList,
  });
  return {
    name: boot.name,
    properties: boot.properties,
    validate: (task) => boot.validate(t(task)),
    prepareRamdisk: (task, mode) => boot.prepareRamdisk(t(task), mode),
    cleanUpRamdisk: (task, mode) => boot.cleanUpRamdisk(t(task), mode),
    prepareInstance: (task) => boot.prepareInstance(t(task)),
    cleanUpInstance: (task) => boot.cleanUpInstance(t(task)),
  };
}
