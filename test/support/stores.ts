/**
 * Opens a throw-away store on each dialect for storage tests: SQLite in a fresh temp directory, or a
 * fresh, uniquely named PostgreSQL database (dropped on destroy). PostgreSQL must be running: tests fail
 * loudly, never skip, when it is not (start it with scripts/start-postgres.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StoreDialect } from '../../src/db/dialect.js';
import { openStore } from '../../src/db/open-store.js';
import { openPostgresDialect } from '../../src/db/postgres-dialect.js';
import { openSqliteDialect } from '../../src/db/sqlite-dialect.js';
import type { Store } from '../../src/db/store.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { lazy } from './lazy.js';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** The PostgreSQL server tests use; its database is only used to create and drop test databases. */
export function testPgUrl(): string {
  return process.env.INGOT_TEST_PG_URL ?? 'postgres://ingot:ingot@127.0.0.1:5432/postgres';
}

/** A store with a way to throw it away. */
export type TestStore = Store & { destroy(): Promise<void> };

/** A fresh temp directory for SQLite files (the caller removes it). */
export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'ingot-test-'));
}

async function adminClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new Error(
      `PostgreSQL is not reachable at ${url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@')}: run scripts/start-postgres.sh (apt-get install postgresql) [${(err as Error).message}]`,
      { cause: err },
    );
  }
  return client;
}

/** The URL of database `name` on the server of `url`. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, empty PostgreSQL database on the test server (see {@link testPgUrl}) and how to drop it. */
export interface PostgresDatabase {
  /** Its `postgres://` URL, for a store or `ingot serve --database-url`. */
  url: string;
  /** Drops it (closing whatever is still connected). */
  drop(): Promise<void>;
}

/** Creates a uniquely named, empty PostgreSQL database; the caller drops it. */
export async function freshPostgresDatabase(prefix = 'ingot_test'): Promise<PostgresDatabase> {
  const admin = testPgUrl();
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const client = await adminClient(admin);
    try {
      await client.query(statement);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  return { url: withDatabase(admin, name), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Opens a fresh, empty, migrated store on `dialect`. */
export async function openTestStore(dialect: Dialect): Promise<TestStore> {
  if (dialect === 'sqlite') {
    const dir = tempDataDir();
    const store = await openStore({ dataDir: dir });
    return Object.assign(store, {
      async destroy() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  }
  const db = await freshPostgresDatabase();
  const store = await openStore({ url: db.url, poolSize: 4 });
  return Object.assign(store, {
    async destroy() {
      await store.close();
      await db.drop();
    },
  });
}

/** A fresh, empty (unmigrated) database: how to open its dialect, how a store opens it, how to drop it. */
export interface EmptyDatabase {
  open(): Promise<StoreDialect>;
  store: Parameters<typeof openStore>[0];
  drop(): Promise<void>;
}

/** An empty database on `dialect`, for migration tests. */
export async function emptyDatabase(dialect: Dialect): Promise<EmptyDatabase> {
  if (dialect === 'sqlite') {
    const dir = tempDataDir();
    return {
      open: async () => openSqliteDialect({ dataDir: dir, busyTimeoutMs: 1000 }),
      store: { dataDir: dir },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const db = await freshPostgresDatabase('ingot_test_mig');
  return {
    open: () => openPostgresDialect({ url: db.url, poolSize: 2 }),
    store: { url: db.url, poolSize: 2 },
    drop: db.drop,
  };
}

/**
 * The store of the calling `describe` block on `dialect`: opened before its first test, destroyed after
 * its last; with `emptyNodes`, its nodes are deleted before each test.
 */
export function useTestStore(dialect: Dialect, options: { emptyNodes?: boolean } = {}): TestStore {
  let store: TestStore | undefined;
  beforeAll(async () => {
    store = await openTestStore(dialect);
  });
  afterAll(async () => {
    await store?.destroy();
  });
  if (options.emptyNodes) {
    beforeEach(async () => {
      for (const n of await store!.nodes.list({}, { limit: 0 })) await store!.nodes.delete(n.uuid);
    });
  }
  return lazy(() => store, `the ${dialect} test store`);
}
