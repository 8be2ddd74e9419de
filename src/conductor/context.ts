/** What every part of the conductor shares: storage, configuration, drivers, workers, identity. */
import type { ConductorConfig } from '../config/conductor.js';
import type { ImagesConfig } from '../config/images.js';
import type { AgentServices } from '../drivers/agent/services.js';
import type { NetworkBootEnvironment } from '../drivers/network-boot/environment.js';
import type { InspectorConfig } from '../config/inspector.js';
import type { InspectionRuleInput } from '../inspection/rules/index.js';
import type { Store } from '../db/store.js';
import type { Node } from '../domain/node.js';
import type { DriverRegistry } from '../drivers/registry.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { HashRing } from './hash-ring.js';
import type { WorkerPool } from './workers.js';

export interface ConductorContext {
  readonly store: Store;
  readonly config: Readonly<ConductorConfig>;
  /** How in-band inspection data is processed (the `inspector` group). */
  readonly inspector: Readonly<InspectorConfig>;
  /** The built-in inspection rules (not stored, not changeable through the API). */
  readonly builtInRules: readonly InspectionRuleInput[];
  readonly logger: Logger;
  readonly clock: Clock;
  readonly hostname: string;
  readonly registry: DriverRegistry;
  readonly pool: WorkerPool;
  readonly rings: RingCache;
  /** This conductor's row id once registered (written into conductor_affinity on deploy). */
  conductorId: number | null;
  /** The network boot environment (boot roots, HTTP URL, image cache); null when network boot is not configured. */
  readonly boot: NetworkBootEnvironment | null;
  /** The `images` group: checksum policy and how the agent gets images. */
  readonly images: Readonly<ImagesConfig>;
  /** What the agent steps get from the conductor: the agents' client, the image they write, the command watch. */
  readonly agent: AgentServices;
  /** Consecutive failed power reads per node UUID (power sync); cleared by a good read. */
  readonly powerFailures: Map<string, number>;
}

/**
 * Hash rings per conductor group and hardware type, rebuilt from the conductors table on start and at
 * every heartbeat, so that `conductorsFor` answers a page of nodes from memory.
 */
export class RingCache {
  private rings = new Map<string, HashRing>();

  constructor(private readonly store: Store) {}

  /** Reloads the online conductors; `staleBefore` (ISO) excludes conductors silent since then. */
  async refresh(staleBefore?: string): Promise<void> {
    const all = await this.store.conductors.list({ limit: 10_000 });
    const rings = new Map<string, string[]>();
    for (const c of all) {
      if (!c.online) continue;
      if (staleBefore && c.updated_at && c.updated_at < staleBefore) continue;
      for (const driver of c.drivers) {
        const key = `${c.conductor_group}\u0000${driver}`;
        rings.set(key, [...(rings.get(key) ?? []), c.hostname]);
      }
    }
    this.rings = new Map([...rings].map(([k, hosts]) => [k, new HashRing(hosts)]));
  }

  /** The conductor that manages `node`, or null when none serves its group and driver. */
  hostFor(node: Pick<Node, 'uuid' | 'driver' | 'conductor_group'>): string | null {
    return this.rings.get(`${node.conductor_group}\u0000${node.driver}`)?.hostFor(node.uuid) ?? null;
  }
}
