/**
 * The agent of a simulated machine: what a ramdisk would do after a network boot, without booting — the
 * inventory of the machine's hardware profile, posted to the inspection callback. The BMC emulator runs
 * it when a simulated machine boots from the network.
 */
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { buildInspectionPayload } from './collectors/payload.js';
import { defaultAgentConfig } from './config.js';
import { simulatedHardwareManager } from './hardware/simulated.js';
import { postInspection } from './inspect.js';
import { hostSystem } from './system.js';

export interface SimulatedInspection {
  profile: HardwareProfile;
  callbackUrl: string;
  /** The BMC address the machine would read from its BMC. */
  bmcAddress: string | null;
  /** Report this ramdisk error instead of a clean inventory (fault injection). */
  error?: string | null;
  /** Give up posting after this long (default 60 s). */
  totalTimeoutMs?: number;
  signal?: AbortSignal;
}

/** Collects the profile's inventory and posts it; resolves with the HTTP status of the answer. */
export async function runSimulatedInspection(opts: SimulatedInspection): Promise<number> {
  const bootMac = opts.profile.nics.find((n) => n.pxe_enabled)?.mac ?? opts.profile.nics[0]?.mac ?? null;
  const manager = simulatedHardwareManager(opts.profile, { bmcAddress: opts.bmcAddress ?? undefined, bootMac: bootMac ?? undefined });
  const config = { ...defaultAgentConfig(), inspectionCallbackUrl: opts.callbackUrl, bootMac };
  const { payload } = await buildInspectionPayload(config, manager, hostSystem());
  if (opts.error) payload.error = opts.error;
  const answer = await postInspection(opts.callbackUrl, payload, { totalTimeoutMs: opts.totalTimeoutMs ?? 60_000, initialDelayMs: 200, maxDelayMs: 5000, signal: opts.signal });
  return answer.status;
}
