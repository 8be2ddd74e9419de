/**
 * `ingot serve`: the API and the conductor in one process, on the embedded SQLite file by default.
 * Shutdown on SIGINT/SIGTERM: stop accepting requests, let running work finish (or abandon it safely,
 * leaving each node in a defined failure state), release every lock, close the database.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { IngotConfig } from '../config/ingot-config.js';
import { buildApp } from '../api/app.js';
import { buildInspectorApp } from '../api/legacy-inspector/app.js';
import { createAuthStrategy } from '../api/auth/create-strategy.js';
import { createConductor } from '../conductor/conductor.js';
import { openStore } from '../db/open-store.js';
import { startBootServices, type BootServices } from './boot-services.js';
import { loadBuiltInRules } from './built-in-rules.js';
import { isLoopback } from '../shared/loopback.js';
import { fail } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

export interface RunningServer {
  url: string;
  /** URL of the ironic-inspector compatible listener, when `api.inspector_port` is not 0. */
  inspectorUrl?: string;
  /**
   * The HTTP boot server's URL for machines (`boot.http_url`, empty when unknown) and its root directory;
   * the ports the HTTP boot server and the TFTP server bound, when they run.
   */
  boot: { httpUrl: string; httpRoot: string; httpPort?: number; tftpPort?: number };
  /** Graceful stop; resolves when everything is closed. */
  close(): Promise<void>;
}

/** Starts API + conductor; resolves once the port is bound. */
export async function startServer(config: IngotConfig, logger: Logger): Promise<RunningServer> {
  if (config.api.auth_strategy === 'noauth' && !isLoopback(config.api.host)) {
    if (!config.api.allow_insecure_noauth) throw fail('noauthNotLoopback', { host: config.api.host });
    logger.warn({ host: config.api.host }, `api.allow_insecure_noauth: the API on ${config.api.host} lets anyone manage every machine`);
  }
  const auth = createAuthStrategy(config.api, logger);
  const builtInRules = await loadBuiltInRules(config.inspector.built_in_rules);
  const store = await openStore({
    url: config.database.url,
    dataDir: config.database.data_dir,
    busyTimeoutMs: config.database.sqlite_busy_timeout_ms,
    poolSize: config.database.pool_size,
    logger,
  });
  let boot: BootServices;
  try {
    boot = await startBootServices(config, logger);
  } catch (err) {
    await store.close();
    throw err;
  }
  const conductor = createConductor({
    store,
    config: {
      ...config.conductor,
      deploy_logs_dir: config.conductor.deploy_logs_dir || path.join(config.database.data_dir, 'deploy-logs'),
      console_logs_dir: config.conductor.console_logs_dir || path.join(config.database.data_dir, 'console-logs'),
    },
    logger, inspector: config.inspector, builtInRules, images: config.images,
    drivers: { redfish: config.redfish, ipmi: config.ipmi, boot: boot.environment },
  });
  try {
    await conductor.start();
  } catch (err) {
    await boot.close();
    await store.close();
    throw err;
  }
  const app = buildApp({ store, conductor: conductor.client, config: config.api, logger, auth });
  try {
    await app.listen({ host: config.api.host, port: config.api.port });
  } catch (err) {
    await conductor.stop({ timeoutMs: 0 });
    await boot.close();
    await store.close();
    throw err;
  }
  const host = config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host;
  const url = `http://${host}:${boundPort(app.server.address(), config.api.port)}`;
  // A wildcard listen address is no address a machine can call back to: then `boot.api_url` must be set.
  if (!['0.0.0.0', '::'].includes(config.api.host)) boot.setApiUrl(url);

  // The legacy ironic-inspector API, on its own port of the same host.
  let inspector: ReturnType<typeof buildInspectorApp> | undefined;
  let inspectorUrl: string | undefined;
  if (config.api.inspector_port !== 0) {
    inspector = buildInspectorApp({ store, conductor: conductor.client, config: config.api, logger, auth });
    try {
      await inspector.listen({ host: config.api.host, port: config.api.inspector_port });
    } catch (err) {
      await app.close();
      await conductor.stop({ timeoutMs: 0 });
      await boot.close();
      await store.close();
      throw err;
    }
    inspectorUrl = `http://${host}:${boundPort(inspector.server.address(), config.api.inspector_port)}`;
    logger.info({ url: inspectorUrl }, 'ironic-inspector compatible API listening');
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down: no new requests; waiting for running work');
      await Promise.all([app.close(), inspector?.close()]);
      await conductor.stop({ timeoutMs: config.conductor.graceful_shutdown_timeout_s * 1000 });
      await boot.close();
      await store.close();
      auth.close();
      logger.info('stopped');
    })());
  const bootInfo = { httpUrl: boot.environment.config.http_url, httpRoot: boot.environment.config.http_root_dir, httpPort: boot.httpPort, tftpPort: boot.tftpPort };
  return { url, inspectorUrl, boot: bootInfo, close };
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost), which only this machine can reach. */

/** The port a listening server bound (the configured one when the address is not a socket address). */
function boundPort(address: ReturnType<FastifyInstance['server']['address']>, configured: number): number {
  return typeof address === 'object' && address ? address.port : configured;
}
