import type { DriverInterface, DriverTask } from './base.js';

/** Moves the machine between provisioning, cleaning, rescue and tenant networks. */
export interface NetworkInterface extends DriverInterface {
  addProvisioningNetwork(task: DriverTask): Promise<void>;
  removeProvisioningNetwork(task: DriverTask): Promise<void>;
  configureTenantNetworks(task: DriverTask): Promise<void>;
  unconfigureTenantNetworks(task: DriverTask): Promise<void>;
}

declare module './base.js' {
  interface InterfaceContracts {
    network: NetworkInterface;
  }
}
