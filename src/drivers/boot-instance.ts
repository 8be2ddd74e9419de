/**
 * Booting the deployed instance through the node's own interfaces once every deploy step ran (Ironic's
 * `RamdiskDeploy.deploy` tail and `AgentOobStepsMixin`, as one move): the boot interface sets up the
 * instance's boot, the network interface the tenant networks, and the machine is powered on (rebooted
 * with disable_power_off). The `fake` and `ramdisk` deploy interfaces end with it; `direct` runs the same
 * three as its own steps.
 */
import type { DriverTask } from './interfaces/base.js';
import { powerOnOrReboot } from './power-actions.js';

/** See the module doc. */
export async function bootInstance(task: DriverTask): Promise<void> {
  await task.driver.boot.prepareInstance(task);
  await task.driver.network.configureTenantNetworks(task);
  await powerOnOrReboot(task);
}
