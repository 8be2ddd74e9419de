/**
 * The node repository. The exclusive node lock is one conditional UPDATE of `reservation` (DESIGN §3.2):
 * whoever's UPDATE matches the NULL reservation first holds the node; everybody else gets NodeLocked
 * naming the holder. Every UPDATE of a node also adds one to its row `version`, in the same statement,
 * so a reader holding a version knows whether the node changed since. `last_error` is written with
 * secrets masked (`maskText`), whoever writes it.
 */
import { sql, type Insertable, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Node } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { isUuid, newUuid, normalizeUuid } from '../shared/ids.js';
import { maskText } from '../shared/mask.js';
import { planPage, type SortSpec } from './paging.js';
import { prepared } from './prepared.js';
import { guarded, type RepoContext, type ViolationMap } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { NODE_SPEC, type Database, type NodesTable } from './schema.js';
import type { NodeChanges, NodeCreate, NodeFilter, NodeKey, NodeRepository, Page } from './store.js';

const mapper = rowMapper<Node>('node', NODE_SPEC);

/** `Node <ident> could not be found.` (Ironic's wording). */
export function nodeNotFound(ident: string | number) {
  return fail('NodeNotFound', { node: ident });
}

/** Ironic's NodeLocked message. */
export function nodeLocked(uuid: string, holder: string) {
  return fail('NodeLocked', { node: uuid, host: holder });
}

// The row version is internal: no sorting by it.
const NOT_SORTABLE = new Set([...NODE_SPEC.json, 'version']);
const SORT: SortSpec = {
  table: 'nodes',
  sortable: new Set(NODE_SPEC.columns.filter((c) => !NOT_SORTABLE.has(c))),
  notNull: new Set(['uuid', 'driver', 'conductor_group', 'provision_state', 'created_at', 'maintenance', 'console_enabled', 'protected', 'retired', 'disable_power_off']),
  notFound: nodeNotFound,
};

/** The new row version, set by every UPDATE of a node. */
const NEXT_VERSION = sql<number>`version + 1`;

/** The columns of a {@link NodeKey}. */
const KEY_COLUMNS = ['id', 'uuid', 'version', 'driver', 'conductor_group', 'chassis_id'] as const;

/**
 * Sizes of the `id in (…)` lists {@link NodeRepository.getMany} runs: a request is padded to the next
 * size by repeating an id, so a handful of statements serve every count (each distinct SQL text is a
 * prepared statement of its own) and the largest bounds the parameters of one query.
 */
const MANY_SIZES: readonly number[] = [1, 4, 16, 64, 256, 1024];
const MANY_LARGEST = 1024;

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
      if (column === 'name') return fail('DuplicateName', { name: String(name) });
      if (column === 'uuid') return fail('NodeAlreadyExists', { uuid });
      if (column === 'instance_uuid') return fail('InstanceAssociated', { instance_uuid: String(instance), node: uuid });
      return undefined;
    },
    foreignKey: () => fail('nodeChassisMissing'),
  });

  /** After a conditional UPDATE matched nothing: NodeNotFound or NodeLocked naming the holder. */
  async function explainMiss(column: 'uuid' | 'name', value: string, host?: string): Promise<never> {
    const row = await db.selectFrom('nodes').select(['uuid', 'reservation']).where(column, '=', value).executeTakeFirst();
    if (!row) throw nodeNotFound(value);
    if (row.reservation !== null) throw nodeLocked(row.uuid, row.reservation);
    throw fail('nodeNotLockedBy', { node: row.uuid, host: host ?? '' });
  }

  const byUuid = prepared(db, db.selectFrom('nodes').selectAll().where('uuid', '=', ''));
  const byName = prepared(db, db.selectFrom('nodes').selectAll().where('name', '=', ''));
  const byId = prepared(db, db.selectFrom('nodes').selectAll().where('id', '=', 0));
  const byIds = new Map<number, (...ids: unknown[]) => Promise<unknown[]>>();
  const byIdsOf = (size: number) => {
    let run = byIds.get(size);
    if (!run) byIds.set(size, (run = prepared(db, db.selectFrom('nodes').selectAll().where('id', 'in', new Array<number>(size).fill(0)))));
    return run;
  };

  /** `base` with the filter, order, keyset condition and limit of a list page (shared by every listing). */
  async function paged<O>(base: NodeQuery<O>, filter: NodeFilter, page: Page): Promise<NodeQuery<O>> {
    const plan = await planPage(ctx, SORT, page);
    let q = applyFilter(base, filter);
    if (plan.where) q = q.where(plan.where);
    for (const o of plan.orderBy) q = q.orderBy(o);
    if (plan.limit !== undefined) q = q.limit(plan.limit);
    return q;
  }

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
      const rows = await (await paged(db.selectFrom('nodes').selectAll(), filter, page)).execute();
      return rows.map((r) => mapper.toRecord(r));
    },

    async listKeys(filter: NodeFilter, page: Page): Promise<NodeKey[]> {
      return (await paged(db.selectFrom('nodes').select(KEY_COLUMNS), filter, page)).execute();
    },

    async getMany(ids: readonly number[]): Promise<Node[]> {
      const out: Node[] = [];
      for (let from = 0; from < ids.length; from += MANY_LARGEST) {
        const part = ids.slice(from, from + MANY_LARGEST);
        const size = MANY_SIZES.find((n) => n >= part.length) ?? MANY_LARGEST;
        // Repeating an id in an `in` list matches its row once.
        const params = part.length === size ? part : [...part, ...new Array<number>(size - part.length).fill(part[0] as number)];
        for (const r of await byIdsOf(size)(...params)) out.push(mapper.toRecord(r));
      }
      return out;
    },

    async count(filter: NodeFilter): Promise<number> {
      const q = applyFilter(db.selectFrom('nodes').select((eb) => eb.fn.countAll<number>().as('n')), filter);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async update(uuid: string, changes: NodeChanges, opts?: { reservation?: string }): Promise<Node> {
      const id = normalizeUuid(uuid);
      const row = mapper.toRow(typeof changes.last_error === 'string' ? { ...changes, last_error: maskText(changes.last_error) } : changes);
      row.updated_at = ctx.now();
      let q = db.updateTable('nodes').set(row as Updateable<NodesTable>).set({ version: NEXT_VERSION }).where('uuid', '=', id);
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
        .set({ reservation: host, version: NEXT_VERSION })
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
        .set({ reservation: null, version: NEXT_VERSION })
        .where('uuid', '=', normalizeUuid(uuid))
        .where('reservation', '=', host)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async releaseAll(host: string): Promise<string[]> {
      const rows = await db
        .updateTable('nodes')
        .set({ reservation: null, version: NEXT_VERSION })
        .where('reservation', '=', host)
        .returning('uuid')
        .execute();
      return rows.map((r) => r.uuid);
    },

    async setTraits(nodeId: number, traits: string[]): Promise<void> {
      const res = await db
        .updateTable('nodes')
        .set({ traits: JSON.stringify(traits), updated_at: ctx.now(), version: NEXT_VERSION })
        .where('id', '=', nodeId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw nodeNotFound(nodeId);
    },
  };
}
