/**
 * The conductor registry. A conductor upserts its row on start, refreshes `updated_at` as a heartbeat,
 * and marks itself offline on a clean stop; rows whose heartbeat is too old belong to dead conductors.
 */
import type { Conductor } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import type { SortSpec } from './paging.js';
import type { RepoContext } from './repo-context.js';
import { CONDUCTOR_SPEC } from './schema.js';
import type { ConductorRepository, Page } from './store.js';
import { tableRepository } from './table-repository.js';

/** `Conductor <hostname> could not be found.` */
export function conductorNotFound(hostname: string) {
  return fail('ConductorNotFound', { conductor: hostname });
}

const SORT: SortSpec = {
  table: 'conductors',
  sortable: new Set(['id', 'hostname', 'conductor_group', 'online', 'created_at', 'updated_at']),
  notNull: new Set(['hostname', 'conductor_group', 'online', 'created_at']),
  markerColumn: 'hostname',
  notFound: conductorNotFound,
};

/** Builds the conductor repository. */
export function conductorRepository(ctx: RepoContext): ConductorRepository {
  const { db } = ctx;
  const table = tableRepository<Conductor>(ctx, {
    table: 'conductors', label: 'conductor', columns: CONDUCTOR_SPEC, sort: SORT, notFound: (hostname) => conductorNotFound(String(hostname)),
  });
  return {
    async register(hostname: string, conductorGroup: string, drivers: string[]): Promise<Conductor> {
      const now = ctx.now();
      const driversJson = JSON.stringify(drivers);
      const row = await db
        .insertInto('conductors')
        .values({ hostname, conductor_group: conductorGroup, drivers: driversJson, online: 1, created_at: now, updated_at: now })
        .onConflict((oc) =>
          oc.column('hostname').doUpdateSet({ conductor_group: conductorGroup, drivers: driversJson, online: 1, updated_at: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return table.toRecord(row);
    },

    async touch(hostname: string): Promise<void> {
      const res = await db.updateTable('conductors').set({ updated_at: ctx.now() }).where('hostname', '=', hostname).executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw conductorNotFound(hostname);
    },

    async unregister(hostname: string): Promise<void> {
      const res = await db
        .updateTable('conductors')
        .set({ online: 0, updated_at: ctx.now() })
        .where('hostname', '=', hostname)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw conductorNotFound(hostname);
    },

    get: (hostname: string) => table.getBy('hostname', hostname, hostname),

    list: (page: Page) => table.list(page),

    async listStale(olderThan: string): Promise<Conductor[]> {
      const rows = await db
        .selectFrom('conductors')
        .selectAll()
        .where('online', '=', 1)
        .where('updated_at', '<', olderThan)
        .orderBy('id')
        .execute();
      return rows.map((r) => table.toRecord(r));
    },
  };
}
