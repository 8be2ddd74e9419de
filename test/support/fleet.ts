/** Helpers for tests that drive a fleet of nodes through `ingot serve`: bounded parallel calls and settle waits. */
import { apiOk } from './http.js';

/** The node fields the waits read. */
export interface FleetNode {
  name: string;
  provision_state: string;
  reservation: string | null;
  last_error: string | null;
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
