/**
 * Simulated machines run the Ingot agent when they boot from the network: the agent reports the
 * machine's hardware profile to Ingot's inspection callback, as a ramdisk booted over PXE would. The
 * callback URL is what Ingot's boot configuration would hand the ramdisk on its kernel command line;
 * here it is given to `ingot bmc` (`--ingot-url`). Faults: `agent_error` (the agent reports a ramdisk
 * error) and `agent_missing` (no agent starts, the machine never calls back).
 */
import type { Logger } from '../shared/logger.js';
import { messageOf } from '../shared/errors.js';
import { runSimulatedInspection } from '../agent/simulation.js';
import type { Machine } from './machine.js';

export interface AgentBootOptions {
  /** Base URL of Ingot's API, e.g. `http://127.0.0.1:6385`. */
  ingotUrl: string;
  /** The BMC address each machine's agent reports (its IPMI address). */
  bmcAddressOf(machine: Machine): string | null;
  logger?: Logger;
  /** Stops agents that are still posting (fleet shutdown). */
  signal?: AbortSignal;
}

/** Makes every simulated machine of `machines` run the agent at each network boot; returns a detach function. */
export function attachSimulatedAgents(machines: readonly Machine[], opts: AgentBootOptions): () => void {
  const callbackUrl = `${opts.ingotUrl.replace(/\/+$/, '')}/v1/continue_inspection`;
  const detach = machines
    .filter((m) => m.backend === 'simulated')
    .map((m) =>
      m.onBoot(({ device }) => {
        if (device !== 'pxe' || m.faults.agent_missing) return;
        runSimulatedInspection({ profile: m.profile, callbackUrl, bmcAddress: opts.bmcAddressOf(m), error: m.faults.agent_error, signal: opts.signal }).then(
          (status) => opts.logger?.info({ machine: m.name, status }, `${m.name}: agent posted its inventory (HTTP ${status})`),
          (err: unknown) => opts.logger?.warn({ machine: m.name }, `${m.name}: agent could not post its inventory: ${messageOf(err)}`),
        );
      }),
    );
  return () => {
    for (const d of detach) d();
  };
}
