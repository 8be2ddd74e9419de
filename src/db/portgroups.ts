/** The port group repository. A port group with ports cannot be deleted (PortgroupNotEmpty). */
import { sql, type SqlBool } from 'kysely';
import type { Portgroup } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, normalizeUuid } from '../shared/ids.js';
import type { SortSpec } from './paging.js';
import type { RepoContext } from './repo-context.js';
import { PORTGROUP_SPEC } from './schema.js';
import type { Page, PortgroupChanges, PortgroupCreate, PortgroupFilter, PortgroupRepository } from './store.js';
import { tableRepository } from './table-repository.js';

/** `Portgroup <ident> could not be found.` */
export function portgroupNotFound(ident: string | number) {
  return fail('PortgroupNotFound', { portgroup: ident });
}

const SORT: SortSpec = {
  table: 'portgroups',
  sortable: new Set(PORTGROUP_SPEC.columns.filter((c) => !PORTGROUP_SPEC.json.includes(c))),
  notNull: new Set(['uuid', 'node_id', 'standalone_ports_supported', 'created_at']),
  notFound: portgroupNotFound,
};

const lower = (address: string | null | undefined) => (address ? address.toLowerCase() : address);

/** Builds the port group repository. */
export function portgroupRepository(ctx: RepoContext): PortgroupRepository {
  const table = tableRepository<Portgroup>(ctx, {
    table: 'portgroups',
    label: 'portgroup',
    columns: PORTGROUP_SPEC,
    sort: SORT,
    notFound: portgroupNotFound,
    unique: {
      name: (v) => fail('portgroupNameExists', { name: String(v.name) }),
      address: (v) => fail('portgroupAddressExists', { mac: String(v.address) }),
      uuid: (v) => fail('PortgroupAlreadyExists', { uuid: String(v.uuid) }),
    },
    foreignKey: () => fail('portgroupNodeMissing'),
    deleteOnlyIf: {
      condition: sql<SqlBool>`not exists (select 1 from ports where ports.portgroup_id = portgroups.id)`,
      refused: (uuid) => fail('PortgroupNotEmpty', { portgroup: uuid }),
    },
  });
  return {
    create: (values: PortgroupCreate) => table.create({ ...values, address: lower(values.address) }),
    get: (ident: string) => (isUuid(ident) ? table.getBy('uuid', normalizeUuid(ident), ident) : table.getBy('name', ident, ident)),
    list: (filter: PortgroupFilter, page: Page) => table.list(page, { node_id: filter.node_id, address: filter.address?.toLowerCase() }),
    update: (uuid: string, changes: PortgroupChanges) => table.update(uuid, { ...changes, address: lower(changes.address) }),
    delete: (uuid: string) => table.delete(uuid),
  };
}
