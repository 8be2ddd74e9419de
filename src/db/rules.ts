/**
 * The two inspection rule repositories: Ironic-format rules (`inspection_rules`) and legacy
 * ironic-inspector rules (`legacy_rules`). Rules are small and few; processing reads all of them.
 */
import type { Insertable, Updateable } from 'kysely';
import type { InspectionRuleRecord, LegacyRuleRecord } from '../domain/rules.js';
import { fail } from '../shared/errors.js';
import { newUuid, normalizeUuid } from '../shared/ids.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { INSPECTION_RULE_SPEC, LEGACY_RULE_SPEC, type InspectionRulesTable, type LegacyRulesTable } from './schema.js';
import type {
  InspectionRuleChanges, InspectionRuleCreate, InspectionRuleRepository, LegacyRuleCreate, LegacyRuleRepository, Page,
} from './store.js';

const inspectionMapper = rowMapper<InspectionRuleRecord>('inspection_rules', INSPECTION_RULE_SPEC);
const legacyMapper = rowMapper<LegacyRuleRecord>('legacy_rules', LEGACY_RULE_SPEC);

/** `Inspection rule <uuid> could not be found.` */
export function inspectionRuleNotFound(uuid: string) {
  return fail('InspectionRuleNotFound', `Inspection rule ${uuid} could not be found.`);
}

/** The legacy inspector's wording: `Rule <uuid> was not found`. */
export function legacyRuleNotFound(uuid: string) {
  return fail('InspectionRuleNotFound', `Rule ${uuid} was not found`);
}

const INSPECTION_SORT: SortSpec = {
  table: 'inspection_rules',
  sortable: new Set(['id', 'uuid', 'description', 'priority', 'sensitive', 'phase', 'created_at', 'updated_at']),
  notNull: new Set(['uuid', 'priority', 'sensitive', 'phase', 'created_at']),
  notFound: inspectionRuleNotFound,
};

/** Ironic-format rules. */
export function inspectionRuleRepository(ctx: RepoContext): InspectionRuleRepository {
  const { db } = ctx;
  return {
    async create(values: InspectionRuleCreate): Promise<InspectionRuleRecord> {
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const row = inspectionMapper.toRow({ ...values, uuid, created_at: ctx.now(), updated_at: null });
      const inserted = await guarded(
        ctx,
        { unique: (c) => (c === 'uuid' ? fail('InspectionRuleAlreadyExists', `An inspection rule with UUID ${uuid} already exists.`) : undefined) },
        () => db.insertInto('inspection_rules').values(row as Insertable<InspectionRulesTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return inspectionMapper.toRecord(inserted);
    },

    async get(uuid: string): Promise<InspectionRuleRecord> {
      const row = await db.selectFrom('inspection_rules').selectAll().where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (!row) throw inspectionRuleNotFound(uuid);
      return inspectionMapper.toRecord(row);
    },

    async list(filter: { phase?: string }, page: Page): Promise<InspectionRuleRecord[]> {
      const plan = await planPage(ctx, INSPECTION_SORT, page);
      let q = db.selectFrom('inspection_rules').selectAll();
      if (filter.phase !== undefined) q = q.where('phase', '=', filter.phase);
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => inspectionMapper.toRecord(r));
    },

    async all(): Promise<InspectionRuleRecord[]> {
      return (await db.selectFrom('inspection_rules').selectAll().orderBy('id').execute()).map((r) => inspectionMapper.toRecord(r));
    },

    async update(uuid: string, changes: InspectionRuleChanges): Promise<InspectionRuleRecord> {
      const row = inspectionMapper.toRow({ ...changes, updated_at: ctx.now() });
      const updated = await db
        .updateTable('inspection_rules')
        .set(row as Updateable<InspectionRulesTable>)
        .where('uuid', '=', normalizeUuid(uuid))
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw inspectionRuleNotFound(uuid);
      return inspectionMapper.toRecord(updated);
    },

    async delete(uuid: string): Promise<void> {
      const res = await db.deleteFrom('inspection_rules').where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw inspectionRuleNotFound(uuid);
    },

    async deleteAll(): Promise<number> {
      const res = await db.deleteFrom('inspection_rules').executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

/** Legacy ironic-inspector rules, in creation order. */
export function legacyRuleRepository(ctx: RepoContext): LegacyRuleRepository {
  const { db } = ctx;
  return {
    async create(values: LegacyRuleCreate): Promise<LegacyRuleRecord> {
      const uuid = values.uuid ? normalizeUuid(values.uuid) : newUuid();
      const row = legacyMapper.toRow({ ...values, uuid, created_at: ctx.now() });
      const inserted = await guarded(
        ctx,
        { unique: (c) => (c === 'uuid' ? fail('InspectionRuleAlreadyExists', `Rule with UUID ${uuid} already exists`) : undefined) },
        () => db.insertInto('legacy_rules').values(row as Insertable<LegacyRulesTable>).returningAll().executeTakeFirstOrThrow(),
      );
      return legacyMapper.toRecord(inserted);
    },

    async get(uuid: string): Promise<LegacyRuleRecord> {
      const row = await db.selectFrom('legacy_rules').selectAll().where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (!row) throw legacyRuleNotFound(uuid);
      return legacyMapper.toRecord(row);
    },

    async all(): Promise<LegacyRuleRecord[]> {
      return (await db.selectFrom('legacy_rules').selectAll().orderBy('id').execute()).map((r) => legacyMapper.toRecord(r));
    },

    async delete(uuid: string): Promise<void> {
      const res = await db.deleteFrom('legacy_rules').where('uuid', '=', normalizeUuid(uuid)).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw legacyRuleNotFound(uuid);
    },

    async deleteAll(): Promise<number> {
      const res = await db.deleteFrom('legacy_rules').executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
