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
  return fail('PortNotFound', `Port ${ident} could not be found.`);
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
      address: (v) => fail('MACAlreadyExists', `A port with MAC address ${String(v.address)} already exists.`),
      uuid: (v) => fail('PortAlreadyExists', `A port with UUID ${String(v.uuid)} already exists.`),
      name: (v) => fail('DuplicateName', `A port with name ${String(v.name)} already exists.`),
    },
    foreignKey: () => fail('InvalidParameterValue', 'The node or port group of the port does not exist.'),
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
