/**
 * The inspection rules engine (Ironic's `inspection_rules`). Rules run by priority, higher first (ties
 * keep the given order); for each rule every condition must hold, then its actions run in order. Unlike
 * the legacy engine, a rule sees the changes the rules before it made. A `fail` action or an error stops
 * the run.
 *
 * Templating: `{inventory[...]}`, `{plugin_data[...]}`, `{node.<field>}` and, in a loop, `{item}`.
 * With secret masking on (the default), the values of `password`, `auth_token` and `bmc_password`
 * keys in the inventory and plugin data read as `***`, and the node's driver_info, instance_info and
 * driver_internal_info read as the API shows them (`******` for every secret-looking key), so a rule
 * cannot copy a BMC password or the agent token into a field anyone may read.
 */
import { ipInNetwork, parseIp, parseNetwork } from './ip-net.js';
import {
  ACTION_OPS,
  attributePath,
  checkInspectionRule,
  CONDITION_OPS,
  LOG_LEVELS,
  type InspectionAction,
  type InspectionCondition,
  type InspectionRuleCheckOptions,
  type InspectionRuleInput,
} from './inspection-rules.js';
import { ownSet } from '../../shared/own-keys.js';
import { compilePyRegex } from './py-regex.js';
import { isPlainObject, pyCompare, pyEquals, pyIn, pyStr } from './py-values.js';
import { pythonRepr } from '../../protocol/python-repr.js';
import type { Node } from '../../domain/node.js';
import { maskDict } from '../../shared/mask.js';
import { formatDeep } from './templating.js';
import type { RuleLogLevel, RulesContext, RulesResult } from './types.js';
import { RulesWorkspace } from './workspace.js';

/** Keys whose values templating masks. */
export const SENSITIVE_FIELDS = ['password', 'auth_token', 'bmc_password'] as const;

/** Engine options. */
export interface InspectionRulesOptions {
  /**
   * Mask secrets in what conditions and templates read: `always` (default), `sensitive` (only for rules
   * not marked sensitive), `never`.
   */
  maskSecrets?: 'always' | 'sensitive' | 'never';
}

/** A rule failed to evaluate or apply (not a `fail` action). */
class RuleError extends Error {}

/** A `fail` action ran. */
class RuleFailed extends Error {}

/**
 * Applies inspection rules to one inspection and returns the changes. Rules are given in their wire form:
 * the stored rules and the built-in ones together (Ironic sorts them as one list); an invalid rule fails
 * the run with its problems.
 */
export function applyInspectionRules(
  rules: readonly InspectionRuleInput[],
  ctx: RulesContext,
  options: InspectionRulesOptions = {},
): RulesResult {
  const ws = new RulesWorkspace(ctx);
  // Stored and built-in rules run together; the create-time limits (priority range, uuid form) were
  // checked when each was created or loaded, so here only the structure and the operations are checked.
  const checkOpts: InspectionRuleCheckOptions = { builtIn: true };
  const labelled = rules.map((r, i) => ({ input: r, label: r.uuid ?? r.description ?? `rule #${i}`, priority: r.priority ?? 0 }));
  // Array.prototype.sort is stable: equal priorities keep the given order.
  labelled.sort((a, b) => b.priority - a.priority);
  const mask = options.maskSecrets ?? 'always';

  for (const { input, label } of labelled) {
    const checked = checkInspectionRule(input, checkOpts);
    if (checked.rule === null) return ws.result({ rule: label, message: `invalid rule: ${checked.problems.join('; ')}`, cause: 'error' });
    const rule = checked.rule;
    const masked = mask === 'always' || (mask === 'sensitive' && !rule.sensitive);
    const run = new RuleRun(ws, ctx, label, masked);
    try {
      if (!rule.conditions.every((c) => run.condition(c))) continue;
      ws.say('info', label, 'conditions hold; applying actions');
      ws.applied.push(label);
      for (const action of rule.actions) run.action(action);
    } catch (err) {
      if (err instanceof RuleFailed) return ws.result({ rule: label, message: err.message, cause: 'fail-action' });
      return ws.result({ rule: label, message: err instanceof Error ? err.message : String(err), cause: 'error' });
    }
  }
  return ws.result(null);
}

/** The evaluation of one rule: templating scope, conditions, actions. */
class RuleRun {
  constructor(
    private readonly ws: RulesWorkspace,
    private readonly ctx: RulesContext,
    private readonly label: string,
    private readonly masked: boolean,
  ) {}

  condition(cond: InspectionCondition): boolean {
    const items = loopItems(cond.loop);
    if (items === null) return this.checkOnce(cond, undefined);
    if (!Array.isArray(cond.loop)) return this.checkOnce(cond, items[0]);
    // NOTE: `first` is the result of the first item, as Ironic's rules documentation describes it
    // (its code keeps looking for a later match when the first fails, making `first` act like `any`).
    const results: boolean[] = [];
    for (const item of items) {
      const result = this.checkOnce(cond, item);
      if (cond.multiple === 'first') return result;
      if (cond.multiple === 'any' && result) return true;
      if (cond.multiple === 'all' && !result) return false;
      results.push(result);
    }
    if (cond.multiple === 'last') return results.at(-1) ?? false;
    return cond.multiple === 'all';
  }

  action(action: InspectionAction): void {
    const items = loopItems(action.loop);
    if (items === null) this.runOnce(action, undefined);
    else for (const item of items) this.runOnce(action, item);
  }

  private checkOnce(cond: InspectionCondition, item: unknown): boolean {
    const looped = item !== undefined;
    const sig = CONDITION_OPS[cond.op];
    const args = this.args(cond.args, sig.formatted, item);
    const withDefaults = { ...sig.optional, ...args } as Record<string, unknown>;
    // NOTE: in a loop every argument is a formatted string, so comparisons are made on strings
    // (Ironic sets force_strings there for the same reason).
    if (looped && 'force_strings' in sig.optional) withDefaults.force_strings = true;
    const result = checkCondition(cond.op, withDefaults);
    return cond.invert ? !result : result;
  }

  private runOnce(action: InspectionAction, item: unknown): void {
    const sig = ACTION_OPS[action.op];
    const a = { ...sig.optional, ...this.args(action.args, sig.formatted, item) } as Record<string, unknown>;
    const ws = this.ws;
    switch (action.op) {
      case 'fail':
        // NOTE: the message is templated here (Ironic templates it only inside a loop), so a rule can
        // say what it found: "only {inventory[memory][physical_mb]} MiB".
        throw new RuleFailed(pyStr(a.msg));
      case 'log': {
        const level = String(a.level).toLowerCase();
        if (!(LOG_LEVELS as readonly string[]).includes(level)) {
          throw new RuleError(`invalid log level "${String(a.level)}"; choose from ${LOG_LEVELS.join(', ')}`);
        }
        ws.say(level as RuleLogLevel, this.label, pyStr(a.msg));
        return;
      }
      case 'set-attribute': {
        const parts = attributePath(String(a.path));
        ws.setNode(parts, a.value);
        if (parts.length === 1 && parts[0] === 'driver') ws.resetInterfaces = true;
        return;
      }
      case 'extend-attribute':
        ws.extendNode(attributePath(String(a.path)), a.value, Boolean(a.unique));
        return;
      case 'del-attribute':
        ws.deleteNode(attributePath(String(a.path)));
        return;
      case 'set-capability':
        ws.setCapability(String(a.name), a.value);
        return;
      case 'unset-capability':
        ws.setCapability(String(a.name), undefined);
        return;
      case 'add-trait':
        ws.addTrait(String(a.name));
        return;
      case 'remove-trait':
        if (!ws.removeTrait(String(a.name))) ws.say('warning', this.label, `trait ${String(a.name)} is not set on the node; nothing to remove`);
        return;
      case 'set-plugin-data':
        ws.setPluginData(String(a.path).split('.'), a.value);
        return;
      case 'extend-plugin-data':
        ws.extendPluginData(String(a.path).split('.'), a.value, Boolean(a.unique));
        return;
      case 'unset-plugin-data':
        if (!ws.unsetPluginData(String(a.path).split('.'))) ws.say('warning', this.label, `plugin data path ${String(a.path)} not found`);
        return;
      case 'set-port-attribute':
        ws.setPort(String(a.port_id), attributePath(String(a.path)), a.value);
        return;
      case 'extend-port-attribute':
        ws.extendPort(String(a.port_id), attributePath(String(a.path)), a.value, Boolean(a.unique));
        return;
      case 'del-port-attribute':
        ws.deletePort(String(a.port_id), attributePath(String(a.path)));
        return;
      case 'api-call':
        throw new RuleError('Ingot does not run "api-call" actions');
    }
  }

  /** Formats the arguments that are templated (all of them inside a loop); failures keep the literal. */
  private args(args: Record<string, unknown>, formatted: readonly string[], item: unknown): Record<string, unknown> {
    const looped = item !== undefined;
    const values: Record<string, unknown> = {
      node: this.masked ? maskedNode(this.ws.node) : this.ws.node,
      inventory: this.masked ? maskSecrets(this.ctx.inventory) : this.ctx.inventory,
      plugin_data: this.masked ? maskSecrets(this.ws.pluginData) : this.ws.pluginData,
    };
    if (looped) values.item = item;
    const scope = { values, objects: new Set(['node']) };
    const onError = (template: string, error: Error): string => {
      this.ws.say('warning', this.label, `interpolation failed for ${pythonRepr(template)}: ${error.name}: ${error.message}; using it as is`);
      return template;
    };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      if (!looped && !formatted.includes(k)) ownSet(out, k, v);
      // NOTE: inside a loop Ironic formats a string argument twice, so that an item carrying a template
      // (`value: "{inventory[bmc_address]}"` in a loop item) is resolved too (the documented loop example).
      else if (looped && typeof v === 'string') ownSet(out, k, formatDeep(formatDeep(v, scope, onError), scope, onError));
      else ownSet(out, k, formatDeep(v, scope, onError));
    }
    return out;
  }
}

function loopItems(loop: unknown[] | Record<string, unknown> | null): unknown[] | null {
  if (Array.isArray(loop)) return loop.length > 0 ? loop : null;
  if (isPlainObject(loop)) return Object.keys(loop).length > 0 ? [loop] : null;
  return null;
}

function checkCondition(op: InspectionCondition['op'], a: Record<string, unknown>): boolean {
  switch (op) {
    case 'eq':
    case 'lt':
    case 'gt': {
      if (!Array.isArray(a.values)) throw new RuleError(`condition ${op}: expected a list for "values", got ${pythonRepr(a.values)}`);
      const values = a.force_strings ? a.values.map(pyStr) : a.values;
      for (let i = 0; i + 1 < values.length; i++) {
        const [x, y] = [values[i], values[i + 1]];
        let ok: boolean;
        if (op === 'eq') ok = pyEquals(x, y);
        else {
          let c: number;
          try {
            c = pyCompare(x, y);
          } catch (err) {
            throw new RuleError(`condition ${op}: ${(err as Error).message}`);
          }
          ok = op === 'lt' ? c < 0 : c > 0;
        }
        if (!ok) return false;
      }
      return true;
    }
    case 'is-empty':
      return ['', 'None', '[]', '{}'].includes(pyStr(a.value));
    case 'in-net': {
      let network;
      try {
        network = parseNetwork(pyStr(a.subnet));
      } catch (err) {
        throw new RuleError(`condition in-net: invalid value: ${(err as Error).message}`);
      }
      // NOTE: an address that is not an IP (e.g. a templated "None") does not match rather than abort.
      const address = parseIp(pyStr(a.address));
      return address !== null && ipInNetwork(address, network);
    }
    case 'matches':
    case 'contains': {
      const re = compilePyRegex(pyStr(a.regex), op === 'matches' ? 'fullmatch' : 'search');
      if (!re.ok) throw new RuleError(`condition ${op}: invalid regular expression: ${re.error}`);
      return re.regex.test(pyStr(a.value));
    }
    case 'one-of':
      try {
        return pyIn(a.value, a.values);
      } catch (err) {
        throw new RuleError(`condition one-of: ${(err as Error).message}`);
      }
    case 'is-none':
      return a.value === null || a.value === undefined || a.value === 'None';
    case 'is-true': {
      const v = a.value;
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      if (typeof v === 'string') return ['yes', 'true'].includes(v.toLowerCase());
      return false;
    }
    case 'is-false': {
      const v = a.value;
      if (typeof v === 'boolean') return !v;
      if (typeof v === 'number') return v === 0;
      if (typeof v === 'string') return ['no', 'false'].includes(v.toLowerCase());
      return v === null || v === undefined;
    }
  }
}

/** The node as masked templates see it: its secret-holding fields masked as `shared/mask.ts` does. */
function maskedNode(node: Node): Node {
  return { ...node, driver_info: maskDict(node.driver_info), instance_info: maskDict(node.instance_info), driver_internal_info: maskDict(node.driver_internal_info) };
}

/** A copy of `value` with the values of sensitive keys replaced by `***`, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) ownSet(out, k, (SENSITIVE_FIELDS as readonly string[]).includes(k) ? '***' : maskSecrets(v));
    return out;
  }
  return value;
}
