/** The port repository. MAC addresses are stored lower-case, so lookups and uniqueness ignore case. */
import type { Insertable, Updateable } from 'kysely';
import type { Port } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext, type ViolationMap } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { PORT_SPEC, type PortsTable } from './schema.js';
import type { Page, PortChanges, PortCreate, PortFilter, PortRepository } from './store.js';

const mapper = rowMapper<Port>('port', PORT_SPEC);

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

function violations(v: { address?: string | undefined; uuid?: string | undefined; name?: string | null | undefined }): ViolationMap {
  return {
    unique: (column) => {
      if (column === 'address') return fail('MACAlreadyExists', `A port with MAC address ${v.address} already exists.`);
      if (column === 'uuid') return fail('PortAlreadyExists', `A port with UUID ${v.uuid} already exists.`);
      if (column === 'name') return fail('DuplicateName', `A port with name ${v.name} already exists.`);
      return undefined;
    },
    foreignKey: () => fail('InvalidParameterValue', 'The node or port group of the port does not exist.'),
  };
}

/** Builds the port repository. */
export function portRepository(ctx: RepoContext): PortRepository {
  const { db } = ctx;
  return {
    async create(values: PortCreate): Promise<Port> {
      const address = values.address.toLowerCase();
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const row = mapper.toRow({ ...values, address, uuid, created_at: ctx.now(), updated_at: null });
      const inserted = await guarded(ctx, violations({ address, uuid, name: values.name }), () =>
        db.insertInto('ports').values(row as Insertable<PortsTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return mapper.toRecord(inserted);
    },

    async get(ident: string): Promise<Port> {
      const q = db.selectFrom('ports').selectAll();
      const row = await (isUuid(ident) ? q.where('uuid', '=', normalizeUuid(ident)) : q.where('name', '=', ident)).executeTakeFirst();
      if (!row) throw portNotFound(ident);
      return mapper.toRecord(row);
    },

    async list(filter: PortFilter, page: Page): Promise<Port[]> {
      const plan = await planPage(ctx, SORT, page);
      let q = db.selectFrom('ports').selectAll();
      if (filter.node_id !== undefined) q = q.where('node_id', '=', filter.node_id);
      if (filter.portgroup_id !== undefined) q = q.where('portgroup_id', '=', filter.portgroup_id);
      if (filter.address !== undefined) q = q.where('address', '=', filter.address.toLowerCase());
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => mapper.toRecord(r));
    },

    async update(uuid: string, changes: PortChanges): Promise<Port> {
      const address = changes.address?.toLowerCase();
      const row = mapper.toRow({ ...changes, address, updated_at: ctx.now() });
      const id = normalizeUuid(uuid);
      const updated = await guarded(ctx, violations({ address, uuid: id, name: changes.name }), () =>
        db.updateTable('ports').set(row as Updateable<PortsTable>).where('uuid', '=', id).returningAll().executeTakeFirst(),
      );
      if (!updated) throw portNotFound(uuid);
      return mapper.toRecord(updated);
    },

    async delete(uuid: string): Promise<void> {
      const res = await db.deleteFrom('ports').where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw portNotFound(uuid);
    },
  };
}
