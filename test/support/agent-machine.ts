/**
 * A machine for agent-driven deploy tests that "network-boots" the deploy agent: while its node waits
 * for an agent (`clean wait`, `wait call-back`) without a token handed out, it starts the simulated
 * deploy agent on its disk file (stopping the previous boot's agent); when the node leaves the states an
 * agent serves, the agent goes, as the machine would be powered off or rebooted. With `fastTrack` the
 * agent keeps running in every state until the machine is powered off (the fake power interface's
 * `fake_power_state`) or boots a new ramdisk.
 */
import { startSimulatedDeployAgent } from '../../src/agent/simulation.js';
import type { DeployAgent } from '../../src/agent/deploy-agent.js';
import type { HardwareProfile } from '../../src/protocol/hardware/profile.js';
import { waitForNode } from '../../src/conductor/conductor.test-support.js';
import type { Store } from '../../src/db/store.js';
import type { Node } from '../../src/domain/node.js';
import { apiOk } from './http.js';

/** The node fields the machine looks at (`GET /v1/nodes/{uuid}` or the store). */
export interface WatchedNode {
  provision_state: string;
  driver_internal_info: Record<string, unknown>;
}

/** A small simulated machine `i`: one 8 GiB disk (a sparse file) and one PXE NIC. */
export function deployProfile(i: number): HardwareProfile {
  const mac = `52:54:00:de:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 0xff).toString(16).padStart(2, '0')}`;
  return {
    manufacturer: 'Ingot Simulated', model: 'Sim 1U', serial_number: `SIM-D${i}`, system_uuid: `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`,
    cpu: { count: 2, model_name: 'Sim CPU', frequency_mhz: 2400, architecture: 'x86_64', flags: [] },
    memory_mib: 2048,
    disks: [{ name: '/dev/sda', size_bytes: 8 * 2 ** 30, model: 'SIM SSD', vendor: 'INGOT', serial: `D${i}`, rotational: false, wwn: null }],
    nics: [{ name: 'eth0', mac, speed_mbps: 10000, pxe_enabled: true }],
    boot_mode: 'uefi',
  };
}

export class AgentMachine {
  agent: DeployAgent | null = null;
  /** The agent dies once it has accepted a command (mid-write): no more heartbeats, no answers. */
  stall = false;
  /** Shortest gap between the agent's heartbeats, also before the one it sends when a command finishes. */
  heartbeatMinIntervalMs = 200;
  /** Fast track: the agent outlives the states an agent serves (see the module doc). */
  fastTrack = false;
  private starting = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly uuid: string,
    readonly profile: HardwareProfile,
    readonly disk: string,
    private readonly apiUrl: string,
    private readonly read: (uuid: string) => Promise<WatchedNode | null>,
  ) {
    this.timer = setInterval(() => void this.tick().catch(() => undefined), 100);
  }

  private async tick(): Promise<void> {
    if (this.starting) return;
    const node = await this.read(this.uuid).catch(() => null);
    if (node === null) return;
    const token = node.driver_internal_info.agent_secret_token;
    const waiting = ['clean wait', 'wait call-back'].includes(node.provision_state) && (token === undefined || token === null);
    const serving = this.fastTrack
      ? node.driver_internal_info.fake_power_state !== 'power off'
      : ['clean wait', 'wait call-back', 'cleaning', 'deploying'].includes(node.provision_state);
    const command = node.driver_internal_info.agent_command as { command?: unknown } | undefined;
    const stalls = this.stall && typeof command?.command === 'string';
    // No token while waiting: the node booted a new ramdisk, so an agent still running is the old one.
    if (this.agent && (!serving || waiting || stalls)) {
      const old = this.agent;
      this.agent = null;
      await old.stop();
    }
    if (this.agent || !waiting || stalls) return;
    this.starting = true;
    try {
      this.agent = await startSimulatedDeployAgent({ profile: this.profile, apiUrl: this.apiUrl, disks: { '/dev/sda': this.disk }, heartbeatMinIntervalMs: this.heartbeatMinIntervalMs, lookupTimeoutMs: 20_000 });
    } finally {
      this.starting = false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.agent?.stop();
  }
}

/** Unlocked in a state no flow moves on from by itself. */
export const settled = (n: { reservation: string | null; provision_state: string }) =>
  n.reservation === null && ['available', 'active', 'deploy failed', 'clean failed', 'manageable', 'inspect failed'].includes(n.provision_state);

/** Asks for provision `target` (with `extra` such as a config drive) and waits until the node settles. */
export async function provision(
  api: string, store: Store, uuid: string, target: string, extra: Record<string, unknown> = {}, timeoutMs = 30_000,
): Promise<Node> {
  await apiOk(api, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target, ...extra });
  return waitForNode(store, uuid, settled, timeoutMs);
}
