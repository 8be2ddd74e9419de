/**
 * Redfish clients cached per BMC and credentials, reused across tasks (keeping sessions and keep-alive
 * connections), and one request limiter per BMC (scheme + host + port) shared by all its clients.
 */
import type { RetryObserver } from '../retry-log.js';
import { RedfishClient } from './client.js';
import type { RedfishDriverInfo } from './driver-info.js';
import { Semaphore } from './semaphore.js';
import { redfishSettings, type RedfishSettings } from './settings.js';
import { HttpTransport } from './transport.js';

export interface RedfishPoolOptions {
  settings?: Partial<RedfishSettings>;
  /** Clients kept at most; the least recently used one is closed beyond it. Default 1024. */
  maxClients?: number;
  /** Told about every retry (the conductor logs them). */
  onRetry?: RetryObserver;
}

export class RedfishClientPool {
  readonly settings: RedfishSettings;
  readonly #maxClients: number;
  readonly #clients = new Map<string, RedfishClient>();
  readonly #limiters = new Map<string, Semaphore>();
  readonly #onRetry: RetryObserver | undefined;

  constructor(opts: RedfishPoolOptions = {}) {
    this.settings = redfishSettings(opts.settings);
    this.#maxClients = opts.maxClients ?? 1024;
    this.#onRetry = opts.onRetry;
  }

  /** The client of this BMC and credentials, created on first use. */
  client(info: RedfishDriverInfo): RedfishClient {
    const key = JSON.stringify([info.origin, info.prefix, info.systemId, info.username, info.password, info.verifyCa, info.authType, info.requestTimeoutMs]);
    const cached = this.#clients.get(key);
    if (cached) {
      // Re-insert: Map order is the LRU order.
      this.#clients.delete(key);
      this.#clients.set(key, cached);
      return cached;
    }
    const client = new RedfishClient(info, this.settings, new HttpTransport(info.origin, info.verifyCa), this.limiter(info.origin), this.#onRetry);
    this.#clients.set(key, client);
    if (this.#clients.size > this.#maxClients) {
      const [oldestKey, oldest] = this.#clients.entries().next().value as [string, RedfishClient];
      this.#clients.delete(oldestKey);
      oldest.retire();
    }
    return client;
  }

  /** The request limiter of one BMC origin (`https://host:port`). */
  limiter(origin: string): Semaphore {
    let sem = this.#limiters.get(origin);
    if (!sem) {
      sem = new Semaphore(this.settings.max_concurrent_requests_per_bmc);
      this.#limiters.set(origin, sem);
    }
    return sem;
  }

  /** Number of cached clients. */
  get size(): number {
    return this.#clients.size;
  }

  /** Logs out of every session and drops all connections. */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((c) => c.close()));
  }
}
