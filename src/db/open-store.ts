/**
 * Opens Ingot's storage: the embedded SQLite file by default, PostgreSQL for a postgres:// URL. The
 * schema is migrated on open, so starting a newer Ingot on an older database upgrades it.
 */
import { Migrator } from 'kysely';
import type { Clock } from '../shared/clock.js';
import { isoTime, systemClock } from '../shared/clock.js';
import { fail, messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { chassisRepository } from './chassis.js';
import { conductorRepository } from './conductors.js';
import type { StoreDialect } from './dialect.js';
import { historyRepository } from './history.js';
import { inventoryRepository } from './inventories.js';
import { inspectionRuleRepository, legacyRuleRepository } from './rules.js';
import { migrationProvider } from './migrations/migration-provider.js';
import { nodeRepository } from './nodes.js';
import { portgroupRepository } from './portgroups.js';
import { portRepository } from './ports.js';
import type { RepoContext } from './repo-context.js';
import { openSqliteDialect } from './sqlite-dialect.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** Empty or absent: SQLite in `dataDir`; `postgres://` or `postgresql://`: PostgreSQL. */
  url?: string;
  /** Directory of the SQLite file `ingot.sqlite` (created when missing). Default `./ingot-data`. */
  dataDir?: string;
  /** How long SQLite waits on a lock held by another process. Default 5000. */
  busyTimeoutMs?: number;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  logger?: Logger;
  /** Source of created_at/updated_at times. Default: the system clock. */
  clock?: Clock;
}

/** Hides the password of a database URL for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

async function openDialect(opts: OpenStoreOptions): Promise<StoreDialect> {
  const url = (opts.url ?? '').trim();
  if (url === '' || url.startsWith('sqlite:')) {
    const dataDir = url.startsWith('sqlite:') ? url.slice('sqlite:'.length).replace(/^\/\//, '') : (opts.dataDir ?? './ingot-data');
    if (dataDir === '') throw fail('databaseUrlNoDirectory', { url });
    return openSqliteDialect({ dataDir, busyTimeoutMs: opts.busyTimeoutMs ?? 5000 });
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // NOTE: loaded on demand so that SQLite deployments never load the PostgreSQL driver.
    const { openPostgresDialect } = await import('./postgres-dialect.js');
    return openPostgresDialect({ url, poolSize: opts.poolSize ?? 10, logger: opts.logger });
  }
  throw fail('databaseUrlUnsupported', { url: redactUrl(url) });
}

/** Opens and migrates the store. Close it with `store.close()`. */
export async function openStore(opts: OpenStoreOptions = {}): Promise<Store> {
  const dialect = await openDialect(opts);
  const clock = opts.clock ?? systemClock;
  try {
    const migrator = new Migrator({ db: dialect.db, provider: migrationProvider(dialect) });
    const { error, results } = await migrator.migrateToLatest();
    for (const r of results ?? []) {
      if (r.status === 'Success') opts.logger?.info({ migration: r.migrationName }, 'database migrated');
    }
    if (error) {
      const target = opts.url ? redactUrl(opts.url) : `SQLite in ${opts.dataDir ?? './ingot-data'}`;
      throw fail('databaseOpenFailed', { target, reason: messageOf(error) }, { cause: error });
    }
  } catch (err) {
    await dialect.db.destroy().catch(() => {});
    throw err;
  }
  const ctx: RepoContext = { db: dialect.db, dialect, now: () => isoTime(clock.now()) };
  let closed = false;
  return {
    dialect: dialect.name,
    nodes: nodeRepository(ctx),
    ports: portRepository(ctx),
    portgroups: portgroupRepository(ctx),
    chassis: chassisRepository(ctx),
    conductors: conductorRepository(ctx),
    history: historyRepository(ctx),
    inventories: inventoryRepository(ctx),
    inspectionRules: inspectionRuleRepository(ctx),
    legacyRules: legacyRuleRepository(ctx),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await dialect.db.destroy();
    },
  };
}
