/**
 * The whole configuration: one group per concern, each declared once with defaults and descriptions
 * (DESIGN §3.7). `main/` fills it from the config file, the environment and flags, validates it at
 * start-up and passes the frozen groups down.
 */
import { Type, type Static } from 'typebox';
import { ApiConfig } from './api.js';
import { ConductorConfig } from './conductor.js';
import { DatabaseConfig } from './database.js';
import { LogConfig } from './log.js';

export const IngotConfig = Type.Object({
  api: ApiConfig,
  conductor: ConductorConfig,
  database: DatabaseConfig,
  log: LogConfig,
});
export type IngotConfig = Static<typeof IngotConfig>;

export { ApiConfig, ConductorConfig, DatabaseConfig, LogConfig };
