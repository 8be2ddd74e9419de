/** The port group repository. A port group with ports cannot be deleted (PortgroupNotEmpty). */
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Portgroup } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext, type ViolationMap } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { PORTGROUP_SPEC, type PortgroupsTable } from './schema.js';
import type { Page, PortgroupChanges, PortgroupCreate, PortgroupFilter, PortgroupRepository } from './store.js';

const mapper = rowMapper<Portgroup>('portgroup', PORTGROUP_SPEC);

/** `Portgroup <ident> could not be found.` */
export function portgroupNotFound(ident: string | number) {
  return fail('PortgroupNotFound', `Portgroup ${ident} could not be found.`);
}

const SORT: SortSpec = {
  table: 'portgroups',
  sortable: new Set(PORTGROUP_SPEC.columns.filter((c) => !PORTGROUP_SPEC.json.includes(c))),
  notNull: new Set(['uuid', 'node_id', 'standalone_ports_supported', 'created_at']),
  notFound: portgroupNotFound,
};

function violations(v: { address?: string | null | undefined; uuid?: string | undefined; name?: string | null | undefined }): ViolationMap {
  return {
    unique: (column) => {
      if (column === 'name') return fail('PortgroupAlreadyExists', `A portgroup with name ${v.name} already exists.`);
      if (column === 'address') return fail('PortgroupAlreadyExists', `A portgroup with MAC address ${v.address} already exists.`);
      if (column === 'uuid') return fail('PortgroupAlreadyExists', `A portgroup with UUID ${v.uuid} already exists.`);
      return undefined;
    },
    foreignKey: () => fail('InvalidParameterValue', 'The node of the portgroup does not exist.'),
  };
}

/** Builds the port group repository. */
export function portgroupRepository(ctx: RepoContext): PortgroupRepository {
  const { db } = ctx;
  return {
    async create(values: PortgroupCreate): Promise<Portgroup> {
      const address = values.address ? values.address.toLowerCase() : values.address;
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const row = mapper.toRow({ ...values, address, uuid, created_at: ctx.now(), updated_at: null });
      const inserted = await guarded(ctx, violations({ address, uuid, name: values.name }), () =>
        db.insertInto('portgroups').values(row as Insertable<PortgroupsTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return mapper.toRecord(inserted);
    },

    async get(ident: string): Promise<Portgroup> {
      const q = db.selectFrom('portgroups').selectAll();
      const row = await (isUuid(ident) ? q.where('uuid', '=', normalizeUuid(ident)) : q.where('name', '=', ident)).executeTakeFirst();
      if (!row) throw portgroupNotFound(ident);
      return mapper.toRecord(row);
    },

    async list(filter: PortgroupFilter, page: Page): Promise<Portgroup[]> {
      const plan = await planPage(ctx, SORT, page);
      let q = db.selectFrom('portgroups').selectAll();
      if (filter.node_id !== undefined) q = q.where('node_id', '=', filter.node_id);
      if (filter.address !== undefined) q = q.where('address', '=', filter.address.toLowerCase());
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => mapper.toRecord(r));
    },

    async update(uuid: string, changes: PortgroupChanges): Promise<Portgroup> {
      const address = changes.address ? changes.address.toLowerCase() : changes.address;
      const row = mapper.toRow({ ...changes, address, updated_at: ctx.now() });
      const id = normalizeUuid(uuid);
      const updated = await guarded(ctx, violations({ address, uuid: id, name: changes.name }), () =>
        db.updateTable('portgroups').set(row as Updateable<PortgroupsTable>).where('uuid', '=', id).returningAll().executeTakeFirst(),
      );
      if (!updated) throw portgroupNotFound(uuid);
      return mapper.toRecord(updated);
    },

    async delete(uuid: string): Promise<void> {
      const id = normalizeUuid(uuid);
      // One statement: deletes only an empty group, so a port added concurrently cannot be orphaned.
      const res = await db
        .deleteFrom('portgroups')
        .where('uuid', '=', id)
        .where(sql<SqlBool>`not exists (select 1 from ports where ports.portgroup_id = portgroups.id)`)
        .executeTakeFirst();
      if (Number(res.numDeletedRows) > 0) return;
      const exists = await db.selectFrom('portgroups').select('id').where('uuid', '=', id).executeTakeFirst();
      if (!exists) throw portgroupNotFound(uuid);
      throw fail('PortgroupNotEmpty', `Cannot complete the requested action because portgroup ${id} contains ports.`);
    },
  };
}
