/**
 * The lifecycle benchmark: N fake-hardware nodes go manage → provide → deploy → undeploy, all at once.
 * One poller lists the group (by resource_class, only the fields needed) and wakes each node's chain
 * when its node settles, so the cost of watching does not grow with the number of nodes.
 */
import type { LoadClient } from './http-load.js';

interface Row {
  uuid: string;
  provision_state: string;
  reservation: string | null;
  last_error: string | null;
}

const FAILED = /failed$|^error$/;

/** Runs the lifecycle for `count` new nodes of `resourceClass`; returns wall milliseconds and 409 retries. */
export async function lifecycle(
  client: LoadClient,
  count: number,
  resourceClass: string,
  timeoutMs = 300_000,
): Promise<{ wallMs: number; lockRetries: number }> {
  const uuids: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = await client.json<{ uuid: string }>('POST', '/v1/nodes', {
      driver: 'fake-hardware',
      name: `${resourceClass}-${i}`,
      resource_class: resourceClass,
    });
    uuids.push(n.uuid);
  }
  const waiters = new Map<string, { state: string; resolve: () => void; reject: (e: Error) => void }>();
  let lockRetries = 0;
  let polling = true;
  const deadline = Date.now() + timeoutMs;

  let pollError: Error | undefined;
  const poller = (async () => {
    while (polling && !pollError) {
      if (Date.now() > deadline) throw new Error(`lifecycle did not finish within ${timeoutMs} ms`);
      if (waiters.size > 0) {
        const page = await client.json<{ nodes: Row[] }>(
          'GET',
          `/v1/nodes?resource_class=${resourceClass}&fields=uuid,provision_state,reservation,last_error&limit=1000`,
        );
        for (const row of page.nodes) {
          const w = waiters.get(row.uuid);
          if (!w) continue;
          if (row.provision_state === w.state && row.reservation === null) {
            waiters.delete(row.uuid);
            w.resolve();
          } else if (FAILED.test(row.provision_state)) {
            waiters.delete(row.uuid);
            w.reject(new Error(`node ${row.uuid} went to ${row.provision_state}: ${row.last_error}`));
          }
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })().catch((err: unknown) => {
    pollError = err instanceof Error ? err : new Error(String(err));
    for (const w of waiters.values()) w.reject(pollError);
    waiters.clear();
  });

  const settle = (uuid: string, state: string) =>
    new Promise<void>((resolve, reject) => {
      if (pollError) reject(pollError);
      else waiters.set(uuid, { state, resolve, reject });
    });

  const act = async (uuid: string, target: string, state: string) => {
    const settled = settle(uuid, state);
    settled.catch(() => {}); // observed below; avoids an unhandled rejection while the PUT is retried
    for (let attempt = 0; ; attempt++) {
      const r = await client.request('PUT', `/v1/nodes/${uuid}/states/provision`, { target });
      if (r.status === 202) break;
      if ((r.status === 409 || r.status === 503) && attempt < 50) {
        lockRetries++;
        await new Promise((res) => setTimeout(res, 20));
        continue;
      }
      waiters.delete(uuid);
      throw new Error(`${target} ${uuid}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    }
    await settled;
  };

  const started = performance.now();
  try {
    await Promise.all(
      uuids.map(async (uuid) => {
        await act(uuid, 'manage', 'manageable');
        await act(uuid, 'provide', 'available');
        await act(uuid, 'active', 'active');
        await act(uuid, 'deleted', 'available');
      }),
    );
  } finally {
    polling = false;
    await poller;
  }
  return { wallMs: performance.now() - started, lockRetries };
}
