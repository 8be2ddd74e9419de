/**
 * `POST /v1/continue_inspection`: the agent's inventory arrives. The request thread validates it, finds
 * the node (MACs, BMC address), locks it and resumes the inspection (inspect wait -> inspecting); a
 * worker then processes the data (hooks), stores the inventory, applies the property and port changes,
 * powers the machine off and ends in manageable. A ramdisk error or a failing hook ends in inspect failed
 * with last_error naming the hook and the reason; the inventory is stored either way, for diagnosis.
 */
import { processInspection, type ProcessResult } from '../../inspector/process.js';
import { validateInspectionPayload } from '../../inspector/validate.js';
import type { InspectionPayload } from '../../protocol/agent/inventory.js';
import type { JsonObject } from '../../domain/node.js';
import { S } from '../../domain/states.js';
import { isoTime } from '../../shared/clock.js';
import { fail, IngotError } from '../../shared/errors.js';
import type { ConductorContext } from '../context.js';
import { lookupInspectedNode } from '../inspection-lookup.js';
import { Task } from '../task.js';
import { startFlow } from './run.js';

/** Applies a successful processing result to the locked node: inventory, ports, properties, history. */
async function applyResult(task: Task, payload: InspectionPayload, result: Extract<ProcessResult, { ok: true }>): Promise<void> {
  const { ctx, node } = task;
  // The agent's log tarball (up to tens of MB) is not kept with the inspection data.
  const { logs, ...pluginData } = result.pluginData;
  await ctx.store.inventories.put(node.id, payload.inventory as unknown as JsonObject, pluginData as JsonObject);
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

/**
 * Accepts inspection data for the node it identifies; resolves with that node's UUID once the node is
 * locked and processing has started. Throws InvalidParameterValue for bad data, InspectionLookupFailed /
 * InspectionLookupAmbiguous when no single node matches, NodeLocked when the node is busy.
 */
export async function continueInspection(ctx: ConductorContext, body: unknown, nodeUuid?: string): Promise<string> {
  const config = ctx.inspector;
  const payload = validateInspectionPayload(body);
  const inv = payload.inventory;
  const found = await lookupInspectedNode(ctx, {
    macs: inv.interfaces.map((i) => i.mac_address),
    bmcAddresses: [inv.bmc_address, inv.bmc_v6address],
    ...(nodeUuid ? { nodeUuid } : {}),
  });
  const task = await Task.acquire(ctx, found.uuid);
  let handedOver = false;
  try {
    if (task.node.provision_state !== S.INSPECTWAIT && task.node.provision_state !== S.INSPECTING) {
      throw fail('InvalidState', `Node ${task.node.uuid} is not being inspected (provision state ${task.node.provision_state}).`);
    }
    const slot = ctx.pool.reserve(`continue inspection ${task.node.uuid}`);
    if (task.node.provision_state === S.INSPECTWAIT) await task.process('resume');
    startFlow(task, slot, `continue inspection ${task.node.uuid}`, {
      describe: (err) => `Failed to process the inspection data: ${err instanceof Error ? err.message : String(err)}`,
      run: async (signal) => {
        const ports = await ctx.store.ports.list({ node_id: task.node.id }, { limit: 10_000 });
        const result = processInspection({ node: task.node, ports, payload, config });
        if (!result.ok) {
          await ctx.store.inventories.put(task.node.id, payload.inventory as unknown as JsonObject, {});
          const { hook, message } = result.failure;
          await task.process('fail', { lastError: `Inspection failed (${hook}): ${message}` });
          return;
        }
        await applyResult(task, payload, result);
        if (ctx.config.inspection_power_off) {
          await task.driver.power.setPowerState(task.driverTask(signal), 'power off', ctx.config.power_state_change_timeout_s);
          await task.setPower('power off');
        }
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
