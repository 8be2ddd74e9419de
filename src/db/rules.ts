/**
 * The two inspection rule repositories: Ironic-format rules (`inspection_rules`) and legacy
 * ironic-inspector rules (`legacy_rules`). Rules are small and few; processing reads all of them.
 */
import type { InspectionRuleRecord, LegacyRuleRecord } from '../domain/rules.js';
import { fail } from '../shared/errors.js';
import type { SortSpec } from './paging.js';
import type { RepoContext } from './repo-context.js';
import { INSPECTION_RULE_SPEC, LEGACY_RULE_SPEC } from './schema.js';
import type {
  InspectionRuleChanges, InspectionRuleCreate, InspectionRuleRepository, LegacyRuleCreate, LegacyRuleRepository, Page,
} from './store.js';
import { tableRepository } from './table-repository.js';

/** `Rule <uuid> could not be found.` (Ironic's InspectionRuleNotFound). */
export function inspectionRuleNotFound(uuid: string) {
  return fail('InspectionRuleNotFound', { rule: uuid });
}

/** The legacy inspector's wording: `Rule <uuid> was not found`. */
export function legacyRuleNotFound(uuid: string) {
  return fail('legacyRuleNotFound', { rule: uuid });
}

const INSPECTION_SORT: SortSpec = {
  table: 'inspection_rules',
  sortable: new Set(['id', 'uuid', 'description', 'priority', 'sensitive', 'phase', 'created_at', 'updated_at']),
  notNull: new Set(['uuid', 'priority', 'sensitive', 'phase', 'created_at']),
  notFound: inspectionRuleNotFound,
};

/** Ironic-format rules. */
export function inspectionRuleRepository(ctx: RepoContext): InspectionRuleRepository {
  const table = tableRepository<InspectionRuleRecord>(ctx, {
    table: 'inspection_rules',
    label: 'inspection_rules',
    columns: INSPECTION_RULE_SPEC,
    sort: INSPECTION_SORT,
    notFound: (uuid) => inspectionRuleNotFound(String(uuid)),
    unique: { uuid: (v) => fail('InspectionRuleAlreadyExists', { uuid: String(v.uuid) }) },
  });
  return {
    create: (values: InspectionRuleCreate) => table.create(values),
    get: (uuid: string) => table.get(uuid),
    list: (filter: { phase?: string }, page: Page) => table.list(page, { phase: filter.phase }),
    all: () => table.all(),
    update: (uuid: string, changes: InspectionRuleChanges) => table.update(uuid, changes),
    delete: (uuid: string) => table.delete(uuid),
    deleteAll: () => table.deleteAll(),
  };
}

/** Legacy ironic-inspector rules, in creation order (they are never updated, nor listed by page). */
export function legacyRuleRepository(ctx: RepoContext): LegacyRuleRepository {
  const table = tableRepository<LegacyRuleRecord>(ctx, {
    table: 'legacy_rules',
    label: 'legacy_rules',
    columns: LEGACY_RULE_SPEC,
    notFound: (uuid) => legacyRuleNotFound(String(uuid)),
    unique: { uuid: (v) => fail('legacyRuleExists', { uuid: String(v.uuid) }) },
  });
  return {
    create: (values: LegacyRuleCreate) => table.create(values),
    get: (uuid: string) => table.get(uuid),
    all: () => table.all(),
    delete: (uuid: string) => table.delete(uuid),
    deleteAll: () => table.deleteAll(),
  };
}
