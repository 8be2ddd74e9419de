/**
 * The legacy (ironic-inspector) rules engine. As ironic-inspector did, it first checks the conditions of
 * every rule against the data and the node as they arrived, then runs the actions of the matching rules
 * in the given (creation) order; a `fail` action or an error stops the run.
 *
 * The inspection data a `data://` field and `{data[...]}` see is the plugin data with the inventory
 * under `inventory` (the document ironic-inspector stored after its processing hooks).
 */
import type { Node } from '../../domain/node.js';
import { findJsonPath } from './json-path.js';
import { checkLegacyRule, type LegacyAction, type LegacyCondition, type LegacyRule, type LegacyRuleInput } from './legacy-rules.js';
import { ipInNetwork, parseIp, parseNetwork } from './ip-net.js';
import { compilePyRegex } from './py-regex.js';
import { FormatError } from './py-format.js';
import { isPlainObject, pyCompare, pyEquals, pyStr, pyTypeName } from './py-values.js';
import { pythonRepr } from '../../protocol/python-repr.js';
import { formatDeep } from './templating.js';
import type { RulesContext, RulesResult } from './types.js';
import { RuleActionError, RulesWorkspace } from './workspace.js';

/** Thrown while checking a condition on a value it cannot handle. */
class ConditionError extends Error {}

/**
 * Applies legacy rules (in the order given: their creation order) to one inspection. Rules are given in
 * their stored (wire) form; an invalid rule fails the run with its problems.
 */
export function applyLegacyRules(rules: readonly LegacyRuleInput[], ctx: RulesContext): RulesResult {
  const ws = new RulesWorkspace(ctx);
  const data: Record<string, unknown> = { ...ctx.pluginData, inventory: ctx.inventory };
  const node = ctx.node;

  const matching: { rule: LegacyRule; label: string }[] = [];
  for (const [i, input] of rules.entries()) {
    const label = labelOf(input, i);
    const checked = checkLegacyRule(input);
    if (checked.rule === null) {
      return ws.result({ rule: label, message: `invalid rule: ${checked.problems.join('; ')}`, cause: 'error' });
    }
    const valid = checked.rule;
    if (valid.scope && valid.scope !== node.properties.inspection_scope) {
      ws.say('debug', label, `rule scope "${valid.scope}" does not match the node's inspection_scope; skipped`);
      continue;
    }
    try {
      if (conditionsHold(valid, data, node, (msg) => ws.say('debug', label, msg))) matching.push({ rule: valid, label });
    } catch (err) {
      return ws.result({ rule: label, message: messageOf(err), cause: 'error' });
    }
  }

  for (const { rule, label } of matching) {
    ws.say('info', label, 'conditions hold; applying actions');
    ws.applied.push(label);
    for (const action of rule.actions) {
      try {
        const failure = runAction(ws, action, data);
        if (failure !== null) return ws.result({ rule: label, message: failure, cause: 'fail-action' });
      } catch (err) {
        return ws.result({ rule: label, message: `action ${action.action} failed: ${messageOf(err)}`, cause: 'error' });
      }
    }
  }
  return ws.result(null);
}

function labelOf(rule: { uuid?: string | null; description?: string | null }, i: number): string {
  return rule.uuid ?? rule.description ?? `rule #${i}`;
}

function conditionsHold(rule: LegacyRule, data: unknown, node: Node, debug: (msg: string) => void): boolean {
  for (const cond of rule.conditions) {
    let values = findJsonPath(cond.path, cond.scheme === 'node' ? node : data);
    if (values.length === 0) {
      if (cond.op !== 'is-empty') {
        debug(`field ${cond.field} was not found; rule not applied`);
        return false;
      }
      values = [null];
    }
    let result = false;
    for (const value of values) {
      result = check(cond, value);
      if (cond.invert) result = !result;
      if (cond.multiple === 'first' || (cond.multiple === 'all' && !result) || (cond.multiple === 'any' && result)) break;
    }
    if (!result) {
      debug(`condition ${cond.field} ${cond.invert ? 'not ' : ''}${cond.op} ${pythonRepr(cond.params.value)} failed; rule not applied`);
      return false;
    }
  }
  return true;
}

function check(cond: LegacyCondition, field: unknown): boolean {
  const expected = cond.params.value;
  switch (cond.op) {
    case 'eq':
      return pyEquals(coerce(field, expected), expected);
    case 'ne':
      return !pyEquals(coerce(field, expected), expected);
    case 'lt':
      return compare(field, expected) < 0;
    case 'gt':
      return compare(field, expected) > 0;
    case 'le':
      return compare(field, expected) <= 0;
    case 'ge':
      return compare(field, expected) >= 0;
    case 'is-empty':
      return field === null || field === undefined || field === '' || (Array.isArray(field) && field.length === 0) || (isPlainObject(field) && Object.keys(field).length === 0);
    case 'in-net': {
      // NOTE: a value that is not an IP address (a NIC without an address reports null) does not match;
      // netaddr would raise there and abort the whole inspection.
      const address = typeof field === 'string' ? parseIp(field) : null;
      return address !== null && ipInNetwork(address, parseNetwork(String(expected)));
    }
    case 'matches':
    case 'contains': {
      const re = compilePyRegex(String(expected), cond.op === 'matches' ? 'fullmatch' : 'search');
      if (!re.ok) throw new ConditionError(`invalid regular expression: ${re.error}`);
      return re.regex.test(pyStr(field));
    }
  }
}

function compare(field: unknown, expected: unknown): number {
  try {
    return pyCompare(coerce(field, expected), expected);
  } catch (err) {
    throw new ConditionError(`cannot compare ${pythonRepr(field)} with ${pythonRepr(expected)}: ${messageOf(err)}`);
  }
}

/**
 * ironic-inspector converts the field to the type of the expected value when that is a number:
 * `int(field)` for integers (and booleans, which Python counts as integers), `float(field)` otherwise.
 */
function coerce(field: unknown, expected: unknown): unknown {
  if (typeof expected !== 'number' && typeof expected !== 'boolean') return field;
  const integer = typeof expected === 'boolean' || Number.isInteger(expected);
  if (typeof field === 'boolean') return Number(field);
  if (typeof field === 'number') return integer ? Math.trunc(field) : field;
  if (typeof field === 'string') {
    const s = field.trim();
    if (integer ? /^[+-]?\d+$/.test(s) : s !== '' && !Number.isNaN(Number(s))) return Number(s);
    throw new ConditionError(`invalid literal for ${integer ? 'int' : 'float'}(): ${pythonRepr(field)}`);
  }
  throw new ConditionError(`${integer ? 'int' : 'float'}() argument must be a string or a number, not '${pyTypeName(field)}'`);
}

/** Runs one action; returns the failure message of a `fail` action, otherwise null. */
function runAction(ws: RulesWorkspace, action: LegacyAction, data: unknown): string | null {
  const p = action.params;
  const formatted = (v: unknown): unknown => {
    try {
      return formatDeep(v, { values: { data } });
    } catch (err) {
      if (err instanceof FormatError) {
        throw new RuleActionError(`invalid formatting variable key provided in value ${pythonRepr(v)}: ${err.message}`);
      }
      throw err;
    }
  };
  switch (action.action) {
    case 'fail':
      return pyStr(p.message);
    case 'set-attribute': {
      const parts = pointerParts(String(p.path));
      ws.setNode(parts, formatted(p.value));
      if (parts.length === 1 && parts[0] === 'driver' && (p.reset_interfaces === undefined || p.reset_interfaces === null || Boolean(p.reset_interfaces))) {
        ws.resetInterfaces = true;
      }
      return null;
    }
    case 'extend-attribute':
      ws.extendNode(pointerParts(String(p.path)), formatted(p.value), Boolean(p.unique));
      return null;
    case 'set-capability':
      ws.setCapability(String(p.name), 'value' in p ? formatted(p.value) : null);
      return null;
    case 'add-trait':
      ws.addTrait(String(p.name));
      return null;
    case 'remove-trait':
      ws.removeTrait(String(p.name));
      return null;
  }
}

/** A JSON-patch style path (`/driver_info/ipmi_address`, or without the leading slash) split into keys. */
function pointerParts(path: string): string[] {
  return path
    .replace(/^\/+/, '')
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
