/**
 * `POST /v1/continue_inspection`: the agent's inventory arrives. The request thread validates it, finds
 * the node (MACs, BMC address) — or, with auto-discovery on, enrolls one for an unknown machine — locks
 * it and resumes the inspection (inspect wait -> inspecting); a worker then processes the data (hooks),
 * applies the property and port changes, runs the inspection rules, stores the inventory, powers the
 * machine off (with fast track it stays on, its agent running) and ends in manageable. A ramdisk error, a
 * failing hook or a failing rule ends in inspect failed with last_error naming the hook or rule and the
 * reason; the inventory is stored either way, for diagnosis. A discovered node stays in enroll (with
 * last_error set when processing failed).
 */
import { processInspection, type ProcessResult } from '../../inspection/process.js';
import { validateInspectionPayload } from '../../inspection/validate.js';
import type { InspectionPayload } from '../../protocol/agent/inventory.js';
import type { JsonObject, Node } from '../../domain/node.js';
import { S } from '../../domain/states.js';
import { isoTime } from '../../shared/clock.js';
import { fail, IngotError, messageOf } from '../../shared/errors.js';
import type { ConductorContext } from '../context.js';
import { enrollDiscoveredNode } from '../discovery.js';
import { lookupInspectedNode } from '../inspection-lookup.js';
import { runInspectionRules } from '../inspection-rules.js';
import { Task } from '../task.js';
import { fastTrackAble } from '../../drivers/agent/fast-track.js';
import { endAgentRamdisk } from '../../drivers/agent/ramdisk.js';
import { powerOffOrReboot } from '../../drivers/power-actions.js';
import { startFlow } from './run.js';

/** Lines of the rules' own log kept in the node history per inspection. */
const MAX_RULE_LOG_LINES = 20;

/** Applies a successful processing result to the locked node: ports, properties, history. */
async function applyResult(task: Task, result: Extract<ProcessResult, { ok: true }>): Promise<void> {
  const { ctx, node } = task;
  const logs = result.pluginData.logs;
  if (typeof logs === 'string') await task.record('inspection', `the agent sent ${Math.round((logs.length * 3) / 4 / 1024)} KiB of system logs`, 'INFO', null);
  for (const p of result.ports.delete) await ctx.store.ports.delete(p.uuid);
  for (const p of result.ports.update) await ctx.store.ports.update(p.uuid, p.changes);
  for (const p of result.ports.create) {
    try {
      await ctx.store.ports.create({ node_id: node.id, ...p });
    } catch (err) {
      if (!(err instanceof IngotError && err.code === 'MACAlreadyExists')) throw err;
      await task.record('inspection', `port ${p.address} not created: the MAC belongs to another node`, 'WARNING', null);
    }
  }
  task.set({ ...result.node });
  for (const n of result.notes) await task.record('inspection', `${n.hook}: ${n.message}`, n.level === 'warning' ? 'WARNING' : 'INFO', null);
  const slowest = [...result.timings].sort((a, b) => b.ms - a.ms).slice(0, 3).map((t) => `${t.hook} ${t.ms.toFixed(1)} ms`);
  await task.record('inspection', `inventory processed in ${result.totalMs.toFixed(1)} ms (${slowest.join(', ')}); ${result.ports.create.length} port(s) created, ${result.ports.update.length} updated, ${result.ports.delete.length} deleted`, 'INFO', Math.round(result.totalMs));
}

/** Runs hooks and rules and stores the data; returns the failure message, or null when all went well. */
async function processData(task: Task, payload: InspectionPayload): Promise<string | null> {
  const { ctx } = task;
  const inventory = payload.inventory as unknown as JsonObject;
  const ports = await ctx.store.ports.list({ node_id: task.node.id }, { limit: 10_000 });
  const result = processInspection({ node: task.node, ports, payload, config: ctx.inspector });
  if (!result.ok) {
    await ctx.store.inventories.put(task.node.id, inventory, {});
    return `Inspection failed (${result.failure.hook}): ${result.failure.message}`;
  }
  await applyResult(task, result);
  // The agent's log tarball (up to tens of MB) is not kept with the inspection data.
  const { logs: _logs, ...pluginData } = result.pluginData;
  const started = performance.now();
  let rules: Awaited<ReturnType<typeof runInspectionRules>>;
  try {
    rules = await runInspectionRules(task, inventory, pluginData as JsonObject);
  } catch (err) {
    // A rule asked for a change the node or port cannot take (a field that is not writable, a taken MAC).
    await ctx.store.inventories.put(task.node.id, inventory, pluginData as JsonObject);
    return `Inspection failed: the inspection rules' changes could not be applied: ${messageOf(err)}`;
  }
  for (const line of rules.log.filter((l) => l.level !== 'debug').slice(0, MAX_RULE_LOG_LINES)) {
    await task.record('inspection', `rule ${line.rule}: ${line.message}`, line.level === 'info' ? 'INFO' : 'WARNING', null);
  }
  await ctx.store.inventories.put(task.node.id, inventory, rules.pluginData);
  if (rules.failure !== null) return `Inspection failed: ${rules.failure}`;
  if (rules.applied.length > 0) {
    await task.record('inspection', `inspection rules applied: ${rules.applied.join(', ')}`, 'INFO', Math.round(performance.now() - started));
  }
  return null;
}

/** The node the data belongs to: found by lookup or, for an unknown machine with auto-discovery on, enrolled. */
async function findNode(ctx: ConductorContext, payload: InspectionPayload, nodeUuid: string | undefined): Promise<{ node: Node; discovered: boolean }> {
  const inv = payload.inventory;
  const keys = { macs: inv.interfaces.map((i) => i.mac_address), bmcAddresses: [inv.bmc_address, inv.bmc_v6address] };
  try {
    return { node: await lookupInspectedNode(ctx, { ...keys, ...(nodeUuid ? { nodeUuid } : {}) }), discovered: false };
  } catch (err) {
    if (!(err instanceof IngotError && err.code === 'InspectionLookupFailed') || nodeUuid || !ctx.inspector.auto_discovery.enabled) throw err;
    return { node: await enrollDiscoveredNode(ctx, keys.bmcAddresses, keys.macs), discovered: true };
  }
}

/**
 * Accepts inspection data for the node it identifies; resolves with that node's UUID once the node is
 * locked and processing has started. Throws InvalidParameterValue for bad data, InspectionLookupFailed /
 * InspectionLookupAmbiguous when no single node matches, NodeLocked when the node is busy.
 */
export async function continueInspection(ctx: ConductorContext, body: unknown, nodeUuid?: string): Promise<string> {
  const validated = validateInspectionPayload(body);
  const found = await findNode(ctx, validated, nodeUuid);
  // As Ironic does, a discovered machine's plugin data says so (rules match on it).
  const payload: InspectionPayload = found.discovered ? { ...validated, auto_discovered: true } as InspectionPayload : validated;
  const task = await Task.acquire(ctx, found.node.uuid);
  let handedOver = false;
  try {
    const state = task.node.provision_state;
    if (!found.discovered && state !== S.INSPECTWAIT && state !== S.INSPECTING) {
      throw fail('nodeNotInspecting', { node: task.node.uuid, state });
    }
    const slot = ctx.pool.reserve(`continue inspection ${task.node.uuid}`);
    if (state === S.INSPECTWAIT) await task.process('resume');
    startFlow(task, slot, `continue inspection ${task.node.uuid}`, {
      describe: (err) => `Failed to process the inspection data: ${err instanceof Error ? err.message : String(err)}`,
      run: async (signal) => {
        const failure = await processData(task, payload);
        if (found.discovered) {
          task.set({ last_error: failure, inspection_finished_at: isoTime(ctx.clock.now()) });
          await task.save();
          if (failure) await task.record('inspection', failure, 'ERROR', null);
          return;
        }
        if (failure !== null) {
          await task.process('fail', { lastError: failure });
          return;
        }
        // Fast track: the agent goes on to look the node up and heartbeat; the next cleaning or deployment uses it.
        const dt = task.driverTask(signal);
        const keepAgent = fastTrackAble(dt);
        await endAgentRamdisk(dt, { keepAgent });
        if (keepAgent) await task.record('agent', 'fast track: the agent keeps running after inspection; the machine stays on', 'INFO', null);
        // The one-time network boot was used up by the inspection boot, so a reboot (disable_power_off) boots the disk.
        else if (ctx.config.inspection_power_off) await powerOffOrReboot(dt, 'at the end of inspection');
        task.set({ inspection_finished_at: isoTime(ctx.clock.now()) });
        await task.process('done', { lastError: null });
      },
    });
    handedOver = true;
    return task.node.uuid;
  } finally {
    if (!handedOver) await task.release();
  }
}
