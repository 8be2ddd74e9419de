/** Helpers for tests that drive a fleet of nodes through `ingot serve`: bounded parallel calls, settle waits, a fleet that network-boots. */
import { startBmc, type RunningBmc } from './bmc.js';
import { serveFiles, type FileServer } from './files.js';
import { apiOk } from './http.js';
import { startServer, type RunningServer } from './server.js';

/** The node fields the waits read. */
export interface FleetNode {
  name: string;
  provision_state: string;
  reservation: string | null;
  last_error: string | null;
}

/** A node as the fleet tests that deploy read it. */
export interface FleetNodeDetail extends FleetNode {
  uuid: string;
  power_state: string | null;
  driver_internal_info: Record<string, unknown>;
}

/** Runs `fn` over `items`, `width` at a time. */
export async function all<T>(items: readonly T[], fn: (item: T) => Promise<unknown>, width = 10): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++] as T);
  }));
}

/** Every node, in detail. */
export async function fleetNodes<N extends FleetNode>(url: string): Promise<N[]> {
  return (await apiOk<{ nodes: N[] }>(url, 'GET', '/v1/nodes/detail?limit=1000')).nodes;
}

/** Waits until every node is unlocked and `done`; the error lists the ones that are not. */
export async function settle<N extends FleetNode>(url: string, done: (n: N) => boolean, timeoutMs: number, pollMs = 250): Promise<N[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await fleetNodes<N>(url);
    if (list.every((n) => n.reservation === null && done(n))) return list;
    if (Date.now() > deadline) {
      const stuck = list.filter((n) => !(n.reservation === null && done(n))).map((n) => `${n.name}: ${n.provision_state} ${n.last_error ?? ''}`);
      throw new Error(`${stuck.length} node(s) did not settle in ${timeoutMs} ms:\n${stuck.slice(0, 10).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** `ingot serve` with its HTTP boot server, `ingot bmc` emulating machines that network-boot from it, and a file server. */
export interface BootFleet {
  ingot: RunningServer;
  bmc: RunningBmc;
  /** Serves the deploy kernel, ramdisk and images the test names. */
  files: FileServer;
  /** Stops all three; safe when some did not start. */
  stop(): Promise<void>;
}

/**
 * Starts a {@link BootFleet}: `machines` for `ingot bmc`, `files` for the file server, `env` for
 * `ingot serve` over the defaults (agents heartbeat every 1.5–3 s, wait states checked every 2 s, no
 * power sync in the way, IPMI commands 20 ms apart).
 */
export async function startBootFleet(machines: unknown[], files: Readonly<Record<string, Buffer>>, env: Record<string, string> = {}): Promise<BootFleet> {
  const parts: Partial<BootFleet> = {};
  const stop = async () => {
    await parts.bmc?.stop();
    await parts.ingot?.dispose();
    await parts.files?.close();
  };
  try {
    parts.files = await serveFiles(files);
    parts.ingot = await startServer({
      env: {
        INGOT_BOOT_HTTP_ENABLED: 'true',
        INGOT_BOOT_HTTP_HOST: '127.0.0.1',
        INGOT_BOOT_HTTP_PORT: '0',
        INGOT_BOOT_TFTP_SERVER: '127.0.0.1',
        INGOT_CONDUCTOR_AGENT_HEARTBEAT_TIMEOUT_S: '5',
        INGOT_CONDUCTOR_CHECK_PROVISION_STATE_INTERVAL_S: '2',
        INGOT_CONDUCTOR_SYNC_POWER_STATE_INTERVAL_S: '600',
        INGOT_IPMI_MIN_COMMAND_INTERVAL_S: '0.02',
        ...env,
      },
    });
    parts.bmc = await startBmc(machines, ['--boot-url', `http://127.0.0.1:${parts.ingot.httpBootPort}`]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { ...(parts as Omit<BootFleet, 'stop'>), stop };
}
