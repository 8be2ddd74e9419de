/**
 * The node repository. The exclusive node lock is one conditional UPDATE of `reservation` (DESIGN §3.2):
 * whoever's UPDATE matches the NULL reservation first holds the node; everybody else gets NodeLocked
 * naming the holder.
 */
import { sql, type Insertable, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Node } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { prepared } from './prepared.js';
import { guarded, type RepoContext, type ViolationMap } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { NODE_SPEC, type Database, type NodesTable } from './schema.js';
import type { NodeChanges, NodeCreate, NodeFilter, NodeRepository, Page } from './store.js';

const mapper = rowMapper<Node>('node', NODE_SPEC);

/** `Node <ident> could not be found.` (Ironic's wording). */
export function nodeNotFound(ident: string | number) {
  return fail('NodeNotFound', `Node ${ident} could not be found.`);
}

/** Ironic's NodeLocked message. */
export function nodeLocked(uuid: string, holder: string) {
  return fail('NodeLocked', `Node ${uuid} is locked by host ${holder}, please retry after the current operation is completed.`);
}

const NOT_SORTABLE = new Set(NODE_SPEC.json);
const SORT: SortSpec = {
  table: 'nodes',
  sortable: new Set(NODE_SPEC.columns.filter((c) => !NOT_SORTABLE.has(c))),
  notNull: new Set(['uuid', 'driver', 'conductor_group', 'provision_state', 'created_at', 'maintenance', 'console_enabled', 'protected', 'retired']),
  notFound: nodeNotFound,
};

/** A condition no row meets (an empty `in` list). */
const NOTHING = sql<SqlBool>`1 = 0`;

/** Filters that match a text column exactly. */
const EQ_FILTERS = [
  'provision_state', 'driver', 'resource_class', 'conductor_group', 'owner', 'lessee', 'fault', 'instance_uuid',
  'parent_node', 'reservation',
] as const;

type NodeQuery<O> = SelectQueryBuilder<Database, 'nodes', O>;

function applyFilter<O>(qb: NodeQuery<O>, f: NodeFilter): NodeQuery<O> {
  let q = qb;
  for (const k of EQ_FILTERS) {
    const v = f[k];
    if (v !== undefined) q = q.where(k, '=', v);
  }
  if (f.maintenance !== undefined) q = q.where('maintenance', '=', f.maintenance ? 1 : 0);
  if (f.retired !== undefined) q = q.where('retired', '=', f.retired ? 1 : 0);
  if (f.associated !== undefined) q = q.where('instance_uuid', f.associated ? 'is not' : 'is', null);
  if (f.chassis_id !== undefined) q = q.where('chassis_id', '=', f.chassis_id);
  if (f.sharded !== undefined) q = q.where('shard', f.sharded ? 'is not' : 'is', null);
  if (f.shard !== undefined) {
    if (f.shard.length === 0) return q.where(NOTHING);
    q = q.where('shard', 'in', f.shard);
  }
  if (f.provision_states !== undefined) {
    if (f.provision_states.length === 0) return q.where(NOTHING);
    q = q.where('provision_state', 'in', f.provision_states);
  }
  if (f.description_contains !== undefined) {
    const pattern = `%${f.description_contains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<SqlBool>`lower(description) like ${pattern} escape '\\'`);
  }
  return q;
}

/** Builds the node repository. */
export function nodeRepository(ctx: RepoContext): NodeRepository {
  const { db } = ctx;
  const violations = (name: string | null | undefined, uuid: string, instance: string | null | undefined): ViolationMap => ({
    unique: (column) => {
      if (column === 'name') return fail('DuplicateName', `A node with name ${name} already exists.`);
      if (column === 'uuid') return fail('NodeAlreadyExists', `A node with UUID ${uuid} already exists.`);
      if (column === 'instance_uuid') {
        return fail('InstanceAssociated', `Instance ${instance} is already associated with a node, it cannot be associated with this other node ${uuid}`);
      }
      return undefined;
    },
    foreignKey: () => fail('ChassisNotFound', 'The chassis of the node could not be found.'),
  });

  /** After a conditional UPDATE matched nothing: NodeNotFound or NodeLocked naming the holder. */
  async function explainMiss(column: 'uuid' | 'name', value: string, host?: string): Promise<never> {
    const row = await db.selectFrom('nodes').select(['uuid', 'reservation']).where(column, '=', value).executeTakeFirst();
    if (!row) throw nodeNotFound(value);
    if (row.reservation !== null) throw nodeLocked(row.uuid, row.reservation);
    throw fail('NodeLocked', `Node ${row.uuid} is not locked by host ${host ?? ''}; take the lock first.`);
  }

  const byUuid = prepared(db, db.selectFrom('nodes').selectAll().where('uuid', '=', ''));
  const byName = prepared(db, db.selectFrom('nodes').selectAll().where('name', '=', ''));
  const byId = prepared(db, db.selectFrom('nodes').selectAll().where('id', '=', 0));

  const identColumn = (ident: string): ['uuid' | 'name', string] =>
    isUuid(ident) ? ['uuid', normalizeUuid(ident)] : ['name', ident];

  return {
    async create(values: NodeCreate): Promise<Node> {
      const row = mapper.toRow(values);
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      row.uuid = uuid;
      row.created_at = ctx.now();
      row.updated_at = null;
      if (row.traits === undefined) row.traits = '[]';
      const inserted = await guarded(ctx, violations(values.name, uuid, values.instance_uuid), () =>
        db.insertInto('nodes').values(row as Insertable<NodesTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return mapper.toRecord(inserted);
    },

    async get(ident: string): Promise<Node> {
      const [column, value] = identColumn(ident);
      const [row] = await (column === 'uuid' ? byUuid(value) : byName(value));
      if (!row) throw nodeNotFound(ident);
      return mapper.toRecord(row);
    },

    async getById(id: number): Promise<Node> {
      const [row] = await byId(id);
      if (!row) throw nodeNotFound(id);
      return mapper.toRecord(row);
    },

    async list(filter: NodeFilter, page: Page): Promise<Node[]> {
      const plan = await planPage(ctx, SORT, page);
      let q = applyFilter(db.selectFrom('nodes').selectAll(), filter);
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      const rows = await q.execute();
      return rows.map((r) => mapper.toRecord(r));
    },

    async count(filter: NodeFilter): Promise<number> {
      const q = applyFilter(db.selectFrom('nodes').select((eb) => eb.fn.countAll<number>().as('n')), filter);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async update(uuid: string, changes: NodeChanges, opts?: { reservation?: string }): Promise<Node> {
      const id = normalizeUuid(uuid);
      const row = mapper.toRow(changes);
      row.updated_at = ctx.now();
      let q = db.updateTable('nodes').set(row as Updateable<NodesTable>).where('uuid', '=', id);
      if (opts?.reservation !== undefined) q = q.where('reservation', '=', opts.reservation);
      const updated = await guarded(ctx, violations(changes.name, id, changes.instance_uuid), () =>
        q.returningAll().executeTakeFirst(),
      );
      if (!updated) return explainMiss('uuid', id, opts?.reservation);
      return mapper.toRecord(updated);
    },

    async delete(uuid: string): Promise<void> {
      const res = await db.deleteFrom('nodes').where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw nodeNotFound(uuid);
    },

    async reserve(ident: string, host: string): Promise<Node> {
      const [column, value] = identColumn(ident);
      const row = await db
        .updateTable('nodes')
        .set({ reservation: host })
        .where(column, '=', value)
        .where('reservation', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) return explainMiss(column, value, host);
      return mapper.toRecord(row);
    },

    async release(uuid: string, host: string): Promise<boolean> {
      const res = await db
        .updateTable('nodes')
        .set({ reservation: null })
        .where('uuid', '=', normalizeUuid(uuid))
        .where('reservation', '=', host)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async releaseAll(host: string): Promise<string[]> {
      const rows = await db
        .updateTable('nodes')
        .set({ reservation: null })
        .where('reservation', '=', host)
        .returning('uuid')
        .execute();
      return rows.map((r) => r.uuid);
    },

    async setTraits(nodeId: number, traits: string[]): Promise<void> {
      const res = await db
        .updateTable('nodes')
        .set({ traits: JSON.stringify(traits), updated_at: ctx.now() })
        .where('id', '=', nodeId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw nodeNotFound(nodeId);
    },
  };
}
