/** The chassis repository. A chassis with nodes cannot be deleted (ChassisNotEmpty). */
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Chassis } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { CHASSIS_SPEC, type ChassisTable } from './schema.js';
import type { ChassisChanges, ChassisCreate, ChassisRepository, Page } from './store.js';

const mapper = rowMapper<Chassis>('chassis', CHASSIS_SPEC);

/** `Chassis <ident> could not be found.` */
export function chassisNotFound(ident: string | number) {
  return fail('ChassisNotFound', `Chassis ${ident} could not be found.`);
}

const SORT: SortSpec = {
  table: 'chassis',
  sortable: new Set(['id', 'uuid', 'description', 'created_at', 'updated_at']),
  notNull: new Set(['uuid', 'created_at']),
  notFound: chassisNotFound,
};

/** Builds the chassis repository. */
export function chassisRepository(ctx: RepoContext): ChassisRepository {
  const { db } = ctx;
  return {
    async create(values: ChassisCreate): Promise<Chassis> {
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const row = mapper.toRow({ ...values, uuid, created_at: ctx.now(), updated_at: null });
      const inserted = await guarded(
        ctx,
        { unique: (c) => (c === 'uuid' ? fail('ChassisAlreadyExists', `A chassis with UUID ${uuid} already exists.`) : undefined) },
        () => db.insertInto('chassis').values(row as Insertable<ChassisTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return mapper.toRecord(inserted);
    },

    async get(uuid: string): Promise<Chassis> {
      const row = await db.selectFrom('chassis').selectAll().where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (!row) throw chassisNotFound(uuid);
      return mapper.toRecord(row);
    },

    async getById(id: number): Promise<Chassis> {
      const row = await db.selectFrom('chassis').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw chassisNotFound(id);
      return mapper.toRecord(row);
    },

    async list(page: Page): Promise<Chassis[]> {
      const plan = await planPage(ctx, SORT, page);
      let q = db.selectFrom('chassis').selectAll();
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => mapper.toRecord(r));
    },

    async update(uuid: string, changes: ChassisChanges): Promise<Chassis> {
      const row = mapper.toRow({ ...changes, updated_at: ctx.now() });
      const updated = await db
        .updateTable('chassis')
        .set(row as Updateable<ChassisTable>)
        .where('uuid', '=', normalizeUuid(uuid))
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw chassisNotFound(uuid);
      return mapper.toRecord(updated);
    },

    async delete(uuid: string): Promise<void> {
      const id = normalizeUuid(uuid);
      const res = await db
        .deleteFrom('chassis')
        .where('uuid', '=', id)
        .where(sql<SqlBool>`not exists (select 1 from nodes where nodes.chassis_id = chassis.id)`)
        .executeTakeFirst();
      if (Number(res.numDeletedRows) > 0) return;
      const exists = await db.selectFrom('chassis').select('id').where('uuid', '=', id).executeTakeFirst();
      if (!exists) throw chassisNotFound(uuid);
      throw fail('ChassisNotEmpty', `Cannot complete the requested action because chassis ${id} contains nodes.`);
    },
  };
}
