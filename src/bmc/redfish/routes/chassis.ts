/** /redfish/v1/Chassis: one rack-mount chassis per machine, linked to its system and BMC. */
import type { FastifyInstance } from 'fastify';
import { visibleMachines } from '../auth.js';
import { candidates, machineFor, principalOf, type EmulatorContext } from '../context.js';
import { collection, odata, ref, V1 } from '../odata.js';
import { chassisUri, managerUri, systemUri } from '../system-resources.js';

export function chassisRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(`${V1}/Chassis`, async (req) => {
    const members = visibleMachines(principalOf(req), candidates(ctx, principalOf(req))).map(chassisUri);
    return collection(`${V1}/Chassis`, 'Chassis Collection', 'ChassisCollection', members);
  });

  app.get<{ Params: { id: string } }>(`${V1}/Chassis/:id`, async (req) => {
    const m = await machineFor(ctx, req, req.params.id);
    return {
      ...odata(chassisUri(m), '#Chassis.v1_11_0.Chassis'),
      Id: m.name,
      Name: `Chassis of ${m.name}`,
      ChassisType: 'RackMount',
      Manufacturer: m.profile.manufacturer,
      Model: m.profile.model,
      SerialNumber: m.profile.serial_number,
      PowerState: (await m.power()) === 'on' ? 'On' : 'Off',
      IndicatorLED: 'Off',
      Status: { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' },
      Links: { ComputerSystems: [ref(systemUri(m))], ManagedBy: [ref(managerUri(m))], ManagersInChassis: [ref(managerUri(m))] },
    };
  });
}
