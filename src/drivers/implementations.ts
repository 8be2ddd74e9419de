/** Every interface implementation Ingot has, by interface and name. Implementations are stateless: all state lives in the node. */
import type { InterfaceName } from '../domain/node.js';
import type { InterfaceContracts } from './interfaces/index.js';
import { fakeBios, fakeConsole, fakeFirmware, fakeNetwork, fakeRaid, fakeStorage, fakeVendor } from './fake/extras.js';
import { fakeManagement } from './fake/management.js';
import { fakePower } from './fake/power.js';
import { fakeBoot, fakeDeploy, fakeInspect, fakeRescue } from './fake/provisioning.js';
import {
  noBios, noConsole, noFirmware, noInspect, noopManagement, noopNetwork, noopStorage, noRaid, noRescue, noVendor,
} from './noop/index.js';

export type ImplementationTable = { [I in InterfaceName]: Readonly<Record<string, () => InterfaceContracts[I]>> };

export const IMPLEMENTATIONS: ImplementationTable = {
  bios: { fake: fakeBios, 'no-bios': noBios },
  boot: { fake: fakeBoot },
  console: { fake: fakeConsole, 'no-console': noConsole },
  deploy: { fake: fakeDeploy },
  firmware: { fake: fakeFirmware, 'no-firmware': noFirmware },
  inspect: { fake: fakeInspect, 'no-inspect': noInspect },
  management: { fake: fakeManagement, noop: noopManagement },
  network: { noop: noopNetwork, fake: fakeNetwork },
  power: { fake: fakePower },
  raid: { fake: fakeRaid, 'no-raid': noRaid },
  rescue: { fake: fakeRescue, 'no-rescue': noRescue },
  storage: { noop: noopStorage, fake: fakeStorage },
  vendor: { fake: fakeVendor, 'no-vendor': noVendor },
};
