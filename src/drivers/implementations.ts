/**
 * Every interface implementation Ingot has, by interface and name. Implementations keep no node state
 * (it lives in the node); the BMC drivers share the conductor's {@link DriverResources} (sessions, clients).
 */
import type { InterfaceName } from '../domain/node.js';
import type { InterfaceContracts } from './interfaces/index.js';
import { ipmiManagement } from './ipmi/management.js';
import { ipmiPower } from './ipmi/power.js';
import { redfishInspect } from './redfish/inspect.js';
import { redfishManagement } from './redfish/management.js';
import { redfishPower } from './redfish/power.js';
import type { DriverResources } from './resources.js';
import { agentInspect } from './agent/inspect.js';
import { directDeploy, ramdiskDeploy } from './agent/deploy.js';
import { inspectorInspect } from './inspector/inspect.js';
import { fakeBios, fakeConsole, fakeFirmware, fakeNetwork, fakeRaid, fakeStorage, fakeVendor } from './fake/extras.js';
import { fakeManagement } from './fake/management.js';
import { fakePower } from './fake/power.js';
import { httpBoot } from './http/http-boot.js';
import { ipxeBoot } from './ipxe/ipxe-boot.js';
import { pxeBoot } from './pxe/pxe-boot.js';
import { fakeBoot, fakeDeploy, fakeInspect, fakeRescue } from './fake/provisioning.js';
import {
  noBios, noConsole, noFirmware, noInspect, noopManagement, noopNetwork, noopStorage, noRaid, noRescue, noVendor,
} from './noop/noop.js';

export type ImplementationTable = { [I in InterfaceName]: Readonly<Record<string, (resources: DriverResources) => InterfaceContracts[I]>> };

export const IMPLEMENTATIONS: ImplementationTable = {
  bios: { fake: fakeBios, 'no-bios': noBios },
  boot: { fake: fakeBoot, pxe: (r) => pxeBoot(r.boot), ipxe: (r) => ipxeBoot(r.boot), http: (r) => httpBoot(r.boot) },
  console: { fake: fakeConsole, 'no-console': noConsole },
  deploy: { fake: fakeDeploy, direct: directDeploy, ramdisk: ramdiskDeploy },
  firmware: { fake: fakeFirmware, 'no-firmware': noFirmware },
  inspect: {
    fake: fakeInspect,
    'no-inspect': noInspect,
    redfish: (r) => redfishInspect({ pool: r.redfish }),
    agent: agentInspect,
    inspector: (r) => inspectorInspect({ service: r.inspector }),
  },
  management: {
    fake: fakeManagement,
    noop: noopManagement,
    redfish: (r) => redfishManagement({ pool: r.redfish }),
    ipmitool: (r) => ipmiManagement({ client: r.ipmi }),
  },
  network: { noop: noopNetwork, fake: fakeNetwork },
  power: { fake: fakePower, redfish: (r) => redfishPower({ pool: r.redfish }), ipmitool: (r) => ipmiPower({ client: r.ipmi }) },
  raid: { fake: fakeRaid, 'no-raid': noRaid },
  rescue: { fake: fakeRescue, 'no-rescue': noRescue },
  storage: { noop: noopStorage, fake: fakeStorage },
  vendor: { fake: fakeVendor, 'no-vendor': noVendor },
};
