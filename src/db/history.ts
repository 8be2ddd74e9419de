/**
 * Node history: one row per state change or notable event, oldest first (as Ironic lists it), each
 * with the time the node spent in the phase that ended. Events are written with secrets masked
 * (`maskText`): whoever records one, the history never holds a password or a token.
 */
import type { HistoryEvent } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { newUuid, normalizeUuid } from '../shared/ids.js';
import { maskText } from '../shared/mask.js';
import { planPage, type SortSpec } from './paging.js';
import { guarded, type RepoContext } from './repo-context.js';
import { rowMapper } from './row-mapping.js';
import { HISTORY_SPEC } from './schema.js';
import type { HistoryCreate, HistoryRepository, Page } from './store.js';
import { nodeNotFound } from './nodes.js';

const mapper = rowMapper<HistoryEvent>('history event', HISTORY_SPEC);

/** `Node history record <uuid> could not be found.` */
export function historyNotFound(uuid: string) {
  return fail('HistoryNotFound', { history: uuid });
}

const SORT: SortSpec = {
  table: 'node_history',
  sortable: new Set(['id', 'uuid', 'created_at', 'severity', 'event_type', 'conductor', 'user', 'duration_ms']),
  notNull: new Set(['uuid', 'created_at', 'severity', 'event_type']),
  notFound: historyNotFound,
};

/** Builds the history repository. */
export function historyRepository(ctx: RepoContext): HistoryRepository {
  const { db } = ctx;
  return {
    async record(event: HistoryCreate): Promise<HistoryEvent> {
      const row = {
        uuid: newUuid(),
        node_id: event.node_id,
        severity: event.severity,
        event_type: event.event_type,
        event: maskText(event.event),
        conductor: event.conductor ?? null,
        user: event.user ?? null,
        duration_ms: event.duration_ms ?? null,
        created_at: event.created_at ?? ctx.now(),
      };
      const inserted = await guarded(ctx, { foreignKey: () => nodeNotFound(event.node_id) }, () =>
        db.insertInto('node_history').values(row).returningAll().executeTakeFirstOrThrow(),
      );
      return mapper.toRecord(inserted);
    },

    async list(nodeId: number, page: Page): Promise<HistoryEvent[]> {
      const plan = await planPage(ctx, SORT, { ...page, sortKey: page.sortKey ?? 'created_at' });
      let q = db.selectFrom('node_history').selectAll().where('node_id', '=', nodeId);
      if (plan.where) q = q.where(plan.where);
      for (const o of plan.orderBy) q = q.orderBy(o);
      if (plan.limit !== undefined) q = q.limit(plan.limit);
      return (await q.execute()).map((r) => mapper.toRecord(r));
    },

    async get(nodeId: number, uuid: string): Promise<HistoryEvent> {
      const row = await db
        .selectFrom('node_history')
        .selectAll()
        .where('node_id', '=', nodeId)
        .where('uuid', '=', normalizeUuid(uuid))
        .executeTakeFirst();
      if (!row) throw historyNotFound(uuid);
      return mapper.toRecord(row);
    },
  };
}
