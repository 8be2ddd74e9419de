/**
 * Discovery documents: `GET /` lists the API versions, `GET /v1` describes version 1 with links to
 * its resources (gated by the requested microversion), as Ironic's root controllers do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../context.js';
import { baseUrl, selfLinks } from '../links.js';
import { MAX_MINOR, MIN_MINOR, versionString } from '../microversion.js';

/** The `default_version` / `versions[]` entry. */
export function versionDocument(base: string): Record<string, unknown> {
  return {
    id: 'v1',
    links: [{ href: `${base}/v1/`, rel: 'self' }],
    status: 'CURRENT',
    min_version: versionString(MIN_MINOR),
    version: versionString(MAX_MINOR),
  };
}

/** Resources linked from `/v1` with the version that introduced each. */
const RESOURCES: readonly [string, number][] = [
  ['chassis', 1],
  ['nodes', 1],
  ['ports', 1],
  ['drivers', 1],
  ['portgroups', 23],
  ['conductors', 49],
  ['inspection_rules', 96],
];

function v1Document(req: FastifyRequest, deps: ApiDeps): Record<string, unknown> {
  const base = baseUrl(req, deps.config.public_url);
  const doc: Record<string, unknown> = {
    id: 'v1',
    links: [
      { href: `${base}/v1/`, rel: 'self' },
      { href: 'https://docs.openstack.org//ironic/latest/contributor//webapi.html', rel: 'describedby', type: 'text/html' },
    ],
    media_types: [{ base: 'application/json', type: 'application/vnd.openstack.ironic.v1+json' }],
  };
  for (const [name, min] of RESOURCES) {
    if (req.apiMinor >= min) doc[name] = selfLinks(base, name, '');
  }
  doc.version = versionDocument(base);
  return doc;
}

/** Registers `/` and `/v1`. */
export function rootRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/', (req) => {
    const base = baseUrl(req, deps.config.public_url);
    const v = versionDocument(base);
    return {
      name: 'OpenStack Ironic API',
      description: 'Ironic is an OpenStack project which enables the provision and management of baremetal machines.',
      default_version: v,
      versions: [v],
    };
  });
  app.get('/v1', (req) => v1Document(req, deps));
}
