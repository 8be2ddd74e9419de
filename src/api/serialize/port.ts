/** Ports and port groups as the API shows them, with node and port group UUIDs resolved per request. */
import type { Port, Portgroup } from '../../domain/node.js';
import { IngotError } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { selfLinks } from '../links.js';
import type { FieldVersions } from './resource.js';

export const PORT_FIELDS: FieldVersions = {
  uuid: 1, address: 1, node_uuid: 1, extra: 1, created_at: 1, updated_at: 1, internal_info: 18,
  local_link_connection: 19, pxe_enabled: 19, portgroup_uuid: 24, physical_network: 34, is_smartnic: 53, name: 88,
};
export const PORT_DEFAULT_FIELDS = ['uuid', 'address'];

export const PORTGROUP_FIELDS: FieldVersions = {
  uuid: 1, name: 1, address: 1, node_uuid: 1, extra: 1, internal_info: 1, standalone_ports_supported: 1,
  created_at: 1, updated_at: 1, mode: 26, properties: 26,
};
export const PORTGROUP_DEFAULT_FIELDS = ['uuid', 'address', 'name'];

/** Node and port group UUIDs by internal id, loaded once per request. */
export interface OwnerIndex {
  nodeUuid(id: number): string | null;
  portgroupUuid(id: number | null): string | null;
}

/** Loads the owners of `items` (their nodes and, for ports, the nodes' port groups). */
export async function ownerIndex(deps: ApiDeps, items: readonly { node_id: number }[], withPortgroups: boolean): Promise<OwnerIndex> {
  const nodes = new Map<number, string>();
  const groups = new Map<number, string>();
  for (const id of new Set(items.map((i) => i.node_id))) {
    try {
      nodes.set(id, (await deps.store.nodes.getById(id)).uuid);
    } catch (err) {
      // A node deleted between the two reads shows as null; any other failure is an error.
      if (err instanceof IngotError && err.code === 'NodeNotFound') continue;
      throw err;
    }
    if (withPortgroups) {
      for (const pg of await deps.store.portgroups.list({ node_id: id }, { limit: 0 })) groups.set(pg.id, pg.uuid);
    }
  }
  return {
    nodeUuid: (id) => nodes.get(id) ?? null,
    portgroupUuid: (id) => (id === null ? null : (groups.get(id) ?? null)),
  };
}

/** Every field of a port (the caller picks what the version and `fields=` allow). */
export function portView(p: Port, idx: OwnerIndex, base: string): Record<string, unknown> {
  return {
    uuid: p.uuid,
    address: p.address,
    name: p.name,
    node_uuid: idx.nodeUuid(p.node_id),
    portgroup_uuid: idx.portgroupUuid(p.portgroup_id),
    extra: p.extra,
    internal_info: p.internal_info,
    local_link_connection: p.local_link_connection,
    pxe_enabled: p.pxe_enabled,
    physical_network: p.physical_network,
    is_smartnic: p.is_smartnic,
    created_at: p.created_at,
    updated_at: p.updated_at,
    links: selfLinks(base, 'ports', p.uuid),
  };
}

/**
 * A port as the API shows it at `minor`: {@link portView} without the fields newer than the version.
 * Below 1.90 a `local_link_connection` holding the OVN VTEP switch keys shows as `{}` (Ironic keeps the
 * field, whose value that version cannot express).
 */
export function portForVersion(p: Port, idx: OwnerIndex, base: string, minor: number): Record<string, unknown> {
  const view = gate(portView(p, idx, base), PORT_FIELDS, minor);
  if (minor < 90 && minor >= 19) {
    const link = p.local_link_connection;
    if ('vtep-logical-switch' in link || 'vtep-physical-switch' in link) view.local_link_connection = {};
  }
  return view;
}

/** Every field of a port group, plus its `ports` links. */
export function portgroupView(g: Portgroup, idx: OwnerIndex, base: string): Record<string, unknown> {
  return {
    uuid: g.uuid,
    name: g.name,
    address: g.address,
    node_uuid: idx.nodeUuid(g.node_id),
    extra: g.extra,
    internal_info: g.internal_info,
    standalone_ports_supported: g.standalone_ports_supported,
    mode: g.mode,
    properties: g.properties,
    created_at: g.created_at,
    updated_at: g.updated_at,
    links: selfLinks(base, 'portgroups', g.uuid),
  };
}

/** Drops the fields newer than `minor` from a full view. */
export function gate(view: Record<string, unknown>, versions: FieldVersions, minor: number): Record<string, unknown> {
  for (const f of Object.keys(view)) {
    const v = versions[f];
    if (v !== undefined && minor < v) delete view[f];
  }
  return view;
}
