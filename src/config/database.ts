import { Type, type Static } from 'typebox';

/** Where Ingot keeps its state. */
export const DatabaseConfig = Type.Object({
  url: Type.String({
    default: '',
    description: 'postgres:// URL selects PostgreSQL; empty means the embedded SQLite file in data_dir.',
  }),
  data_dir: Type.String({ default: './ingot-data', description: 'Directory for the SQLite file and other local state.' }),
  sqlite_busy_timeout_ms: Type.Integer({ default: 5000, minimum: 0, description: 'How long SQLite waits for a lock held by another process.' }),
  pool_size: Type.Integer({ default: 10, minimum: 1, description: 'PostgreSQL connection pool size.' }),
});
export type DatabaseConfig = Static<typeof DatabaseConfig>;
