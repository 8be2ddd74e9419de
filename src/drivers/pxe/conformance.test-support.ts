/** Runs a boot interface's conformance suite on a node that carries deploy images. */
import type { DriverTask } from '../interfaces/base.js';
import type { BootInterface } from '../interfaces/boot.js';
import { DEPLOY_INFO } from './env.test-support.js';

/**
 * `boot` with every task's node given {@link DEPLOY_INFO}: the suite's sample node has empty driver_info,
 * which a network boot rightly refuses.
 */
export function withDeployImages(boot: BootInterface): BootInterface {
  const t = (task: DriverTask): DriverTask => ({
    get node() {
      return { ...task.node, driver_info: { ...DEPLOY_INFO, ...task.node.driver_info } };
    },
    signal: task.signal,
    shared: task.shared,
    update: (c) => task.update(c),
    reportPorts: (p) => task.reportPorts(p),
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
