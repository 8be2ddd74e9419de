/** The contract of an inspection collector (IPA's `ironic_python_agent.inspector.collectors`). */
import type { InspectionPayload, Inventory } from '../../protocol/agent/inventory.js';
import type { AgentConfig } from '../config.js';
import type { AgentSystem } from '../system.js';

/** What a collector may read. */
export interface CollectorContext {
  config: AgentConfig;
  system: AgentSystem;
  /** The inventory the hardware manager reported. */
  inventory: Inventory;
}

/** Adds its plugin data to `payload` in place; throws to report a failure (the rest still run). */
export type Collector = (payload: InspectionPayload, context: CollectorContext) => Promise<void>;
