/**
 * `/v1/drivers` (list, show, `…/properties`): the hardware types the conductors serve. Ingot has only
 * dynamic drivers; with `detail` (1.30) each shows its default and enabled interface implementations.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DriverInfo } from '../../conductor/client.js';
import { INTERFACES } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, selfLinks } from '../links.js';
import { requireVersion } from '../microversion.js';
import { boolParam, one, type Query } from '../query.js';
import { nodeFieldAllowed } from '../serialize/node.js';

type NameParams = { Params: { driver: string } };

/** A driver as the API shows it. */
export function serializeDriver(d: DriverInfo, req: FastifyRequest, base: string, detail: boolean): Record<string, unknown> {
  const minor = req.apiMinor;
  const out: Record<string, unknown> = { name: d.name, hosts: d.hosts, links: selfLinks(base, 'drivers', d.name) };
  if (minor >= 14) out.properties = selfLinks(base, 'drivers', `${d.name}/properties`);
  if (minor >= 30) {
    out.type = 'dynamic';
    for (const iface of INTERFACES) {
      if (!nodeFieldAllowed(`${iface}_interface`, minor) || (iface === 'network' && minor < 30)) continue;
      const impl = d.interfaces[iface];
      out[`default_${iface}_interface`] = detail ? (impl?.default ?? null) : null;
      out[`enabled_${iface}_interfaces`] = detail ? (impl?.enabled ?? null) : null;
    }
  }
  return out;
}

/** Registers the driver routes. */
export function driverRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/drivers', async (req) => {
    const q = req.query as Query;
    const type = one(q, 'type');
    const detail = boolParam(q, 'detail');
    if (type !== undefined) {
      requireVersion(req.apiMinor, 30, 'filtering drivers by type');
      if (type !== 'classic' && type !== 'dynamic') throw fail('driverTypeInvalid', { type });
    }
    if (detail !== undefined) requireVersion(req.apiMinor, 30, 'driver details');
    const drivers = type === 'classic' ? [] : await deps.conductor.listDrivers();
    const base = baseUrl(req, deps.config.public_url);
    return { drivers: drivers.map((d) => serializeDriver(d, req, base, detail ?? false)) };
  });

  app.get<NameParams>('/v1/drivers/:driver', async (req) => {
    const d = await deps.conductor.getDriver(req.params.driver);
    return serializeDriver(d, req, baseUrl(req, deps.config.public_url), true);
  });

  app.get<NameParams>('/v1/drivers/:driver/properties', async (req) => {
    return deps.conductor.driverProperties(req.params.driver);
  });
}
