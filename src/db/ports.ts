/** The port repository. MAC addresses are stored lower-case, so lookups and uniqueness ignore case. */
import type { Port } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, normalizeUuid } from '../shared/ids.js';
import type { SortSpec } from './paging.js';
import type { RepoContext } from './repo-context.js';
import { PORT_SPEC } from './schema.js';
import type { Page, PortChanges, PortCreate, PortFilter, PortRepository } from './store.js';
import { tableRepository } from './table-repository.js';

/** `Port <ident> could not be found.` */
export function portNotFound(ident: string | number) {
  return fail('PortNotFound', { port: ident });
}

const SORT: SortSpec = {
  table: 'ports',
  sortable: new Set(PORT_SPEC.columns.filter((c) => !PORT_SPEC.json.includes(c))),
  notNull: new Set(['uuid', 'address', 'node_id', 'pxe_enabled', 'is_smartnic', 'created_at']),
  notFound: portNotFound,
};

/** Builds the port repository. */
export function portRepository(ctx: RepoContext): PortRepository {
  const table = tableRepository<Port>(ctx, {
    table: 'ports',
    label: 'port',
    columns: PORT_SPEC,
    sort: SORT,
    notFound: portNotFound,
    unique: {
      address: (v) => fail('MACAlreadyExists', { mac: String(v.address) }),
      uuid: (v) => fail('PortAlreadyExists', { uuid: String(v.uuid) }),
      name: (v) => fail('portNameExists', { name: String(v.name) }),
    },
    foreignKey: () => fail('portParentMissing'),
  });
  return {
    create: (values: PortCreate) => table.create({ ...values, address: values.address.toLowerCase() }),
    get: (ident: string) => (isUuid(ident) ? table.getBy('uuid', normalizeUuid(ident), ident) : table.getBy('name', ident, ident)),
    list: (filter: PortFilter, page: Page) =>
      table.list(page, { node_id: filter.node_id, portgroup_id: filter.portgroup_id, address: filter.address?.toLowerCase() }),
    update: (uuid: string, changes: PortChanges) => table.update(uuid, { ...changes, address: changes.address?.toLowerCase() }),
    delete: (uuid: string) => table.delete(uuid),
  };
}
