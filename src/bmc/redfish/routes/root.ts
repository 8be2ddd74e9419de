/** `/redfish` (the version document) and the service root `/redfish/v1/`, both readable without login. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { odata, ref, V1 } from '../odata.js';

/** The Redfish protocol version the emulator claims. */
export const REDFISH_VERSION = '1.11.0';

export function rootRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/redfish', async () => ({ v1: `${V1}/` }));

  app.get(V1, async () => ({
    ...odata(V1, '#ServiceRoot.v1_5_0.ServiceRoot'),
    Id: 'RootService',
    Name: 'Root Service',
    RedfishVersion: REDFISH_VERSION,
    UUID: ctx.serviceUuid,
    Vendor: 'Ingot',
    Product: 'Ingot Redfish BMC emulator',
    Systems: ref(`${V1}/Systems`),
    Managers: ref(`${V1}/Managers`),
    Chassis: ref(`${V1}/Chassis`),
    SessionService: ref(`${V1}/SessionService`),
    Tasks: ref(`${V1}/TaskService`),
    Links: { Sessions: ref(`${V1}/SessionService/Sessions`) },
    ProtocolFeaturesSupported: { ExpandQuery: { ExpandAll: false }, FilterQuery: false, SelectQuery: false, OnlyMemberQuery: false },
  }));
}
