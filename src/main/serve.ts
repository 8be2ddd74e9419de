/**
 * `ingot serve`: the API and the conductor in one process, on the embedded SQLite file by default.
 * Shutdown on SIGINT/SIGTERM: stop accepting requests, let running work finish (or abandon it safely,
 * leaving each node in a defined failure state), release every lock, close the database.
 */
import type { IngotConfig } from '../config/index.js';
import { buildApp } from '../api/app.js';
import { createConductor } from '../conductor/conductor.js';
import { openStore } from '../db/open-store.js';
import type { Logger } from '../shared/logger.js';

export interface RunningServer {
  url: string;
  /** Graceful stop; resolves when everything is closed. */
  close(): Promise<void>;
}

/** Starts API + conductor; resolves once the port is bound. */
export async function startServer(config: IngotConfig, logger: Logger): Promise<RunningServer> {
  const store = await openStore({
    url: config.database.url,
    dataDir: config.database.data_dir,
    busyTimeoutMs: config.database.sqlite_busy_timeout_ms,
    poolSize: config.database.pool_size,
    logger,
  });
  const conductor = createConductor({ store, config: config.conductor, logger, inspector: config.inspector, drivers: { redfish: config.redfish, ipmi: config.ipmi } });
  try {
    await conductor.start();
  } catch (err) {
    await store.close();
    throw err;
  }
  const app = buildApp({ store, conductor: conductor.client, config: config.api, logger });
  try {
    await app.listen({ host: config.api.host, port: config.api.port });
  } catch (err) {
    await conductor.stop({ timeoutMs: 0 });
    await store.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.api.port;
  const host = config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host;
  const url = `http://${host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down: no new requests; waiting for running work');
      await app.close();
      await conductor.stop({ timeoutMs: config.conductor.graceful_shutdown_timeout_s * 1000 });
      await store.close();
      logger.info('stopped');
    })());
  return { url, close };
}
