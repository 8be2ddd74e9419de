/**
 * Runs the inspection rules at the end of in-band inspection processing, after the hooks, on the node
 * and ports as the hooks left them: first the Ironic-format rules (built-in and stored together, by
 * priority), then the legacy ironic-inspector rules (creation order) on what the first set produced.
 * Changes are applied to the locked node only when every rule ran: a `fail` action or a rule that cannot
 * be applied leaves the node as the hooks left it and reports why, naming the rule.
 */
import type { NodeChanges, PortChanges } from '../db/store.js';
import type { JsonObject } from '../domain/node.js';
import { applyInspectionRules, applyLegacyRules, type InspectionRuleInput, type LegacyRuleInput, type RuleLogLine, type RulesResult } from '../inspection/rules/index.js';
import { checkNodeUpdate } from './node-update.js';
import type { Task } from './task.js';
import { checkTraits } from './traits.js';

/** What the rules did. */
export interface RulesOutcome {
  /** Plugin data after the rules (to store). */
  pluginData: JsonObject;
  /** Why the rules stopped the inspection, or null. */
  failure: string | null;
  /** Labels of the rules whose actions ran. */
  applied: string[];
  log: RuleLogLine[];
}

/** Runs every rule for the task's node; applies the changes to the task (not yet saved) and the ports. */
export async function runInspectionRules(task: Task, inventory: JsonObject, pluginData: JsonObject): Promise<RulesOutcome> {
  const { ctx } = task;
  const [stored, legacy] = await Promise.all([ctx.store.inspectionRules.all(), ctx.store.legacyRules.all()]);
  const rules: InspectionRuleInput[] = [
    ...ctx.builtInRules,
    ...stored.map((r) => ({ uuid: r.uuid, description: r.description, priority: r.priority, sensitive: r.sensitive, phase: r.phase, conditions: r.conditions, actions: r.actions }) as InspectionRuleInput),
  ];
  if (rules.length === 0 && legacy.length === 0) return { pluginData, failure: null, applied: [], log: [] };

  const ports = await ctx.store.ports.list({ node_id: task.node.id }, { limit: 10_000 });
  const first = applyInspectionRules(rules, { node: task.node, ports, inventory, pluginData }, { maskSecrets: ctx.inspector.rules_mask_secrets });
  let outcome = summarize(first, pluginData, 'inspection rule');
  if (outcome.failure !== null || legacy.length === 0) {
    if (outcome.failure === null) await apply(task, [first]);
    return outcome;
  }
  const second = applyLegacyRules(
    legacy.map((r) => ({ uuid: r.uuid, description: r.description, scope: r.scope, conditions: r.conditions, actions: r.actions }) as LegacyRuleInput),
    { node: first.node, ports: first.ports, inventory, pluginData: first.pluginData },
  );
  const legacyOutcome = summarize(second, first.pluginData, 'introspection rule');
  outcome = { ...legacyOutcome, applied: [...outcome.applied, ...legacyOutcome.applied], log: [...outcome.log, ...legacyOutcome.log] };
  if (outcome.failure === null) await apply(task, [first, second]);
  return outcome;
}

function summarize(result: RulesResult, before: JsonObject, kind: string): RulesOutcome {
  const failure = result.failure
    ? result.failure.cause === 'fail-action'
      ? `${kind} ${result.failure.rule} failed the inspection: ${result.failure.message}`
      : `${kind} ${result.failure.rule} could not be applied: ${result.failure.message}`
    : null;
  return { pluginData: result.pluginDataChanged ? result.pluginData : before, failure, applied: result.applied, log: result.log };
}

/** Writes the node changes (checked as any node update is) to the task and the port changes to the store. */
async function apply(task: Task, results: readonly RulesResult[]): Promise<void> {
  const changed: Record<string, unknown> = {};
  for (const r of results) Object.assign(changed, r.nodeChanges);
  const { traits, ...rest } = changed as NodeChanges;
  // Everything is checked before anything is written.
  const nodeChanges: NodeChanges = Object.keys(rest).length > 0 ? checkNodeUpdate(task.ctx.registry, task.node, rest) : {};
  if (traits !== undefined) nodeChanges.traits = checkTraits(task.node.uuid, traits ?? []);
  const ports = new Map<string, Record<string, unknown>>();
  for (const r of results) for (const p of r.portChanges) ports.set(p.uuid, { ...ports.get(p.uuid), ...p.changes });
  for (const [uuid, changes] of ports) await task.ctx.store.ports.update(uuid, changes as PortChanges);
  task.set(nodeChanges);
}
