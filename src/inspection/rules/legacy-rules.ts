/**
 * Legacy introspection rules: the ironic-inspector `/v1/rules` format.
 *
 * ```json
 * {"description": "Set IPMI driver_info if no credentials",
 *  "conditions": [{"op": "is-empty", "field": "node://driver_info.ipmi_password"}],
 *  "actions": [{"action": "set-attribute", "path": "driver", "value": "ipmi"}]}
 * ```
 *
 * A condition is `{op, field, multiple?, invert?, …params}` (`field`: a JSONPath into the inspection
 * data, or into the node with `node://`); an action is `{action, …params}`. The validation here is what
 * rule creation runs: it refuses unknown operators and actions, missing or unexpected parameters, bad
 * regular expressions, bad networks and JSON paths that do not parse, naming the rule field at fault.
 */
import { LegacyRuleBody } from '../../protocol/legacy-inspector/rules.js';
import { fail } from '../../shared/errors.js';
import { prototypeKeyIn } from '../../shared/own-keys.js';
import { problem, schemaProblems } from './schema-errors.js';
import { compilePyRegex } from './py-regex.js';
import { parseNetwork } from './ip-net.js';
import type { OpPlace } from './inspection-rules.js';
import { parseJsonPath, type JsonPath } from './json-path.js';

/** Condition operators of legacy rules. */
export const LEGACY_CONDITION_OPS = ['eq', 'lt', 'gt', 'le', 'ge', 'ne', 'in-net', 'matches', 'contains', 'is-empty'] as const;
export type LegacyConditionOp = (typeof LEGACY_CONDITION_OPS)[number];

/** Actions of legacy rules. */
export const LEGACY_ACTIONS = ['fail', 'set-attribute', 'set-capability', 'extend-attribute', 'add-trait', 'remove-trait'] as const;
export type LegacyActionName = (typeof LEGACY_ACTIONS)[number];

/** A condition as sent: the reserved keys plus the operator's parameters (`value`). */
export type LegacyConditionInput = NonNullable<LegacyRuleBody['conditions']>[number] & { [param: string]: unknown };
/** An action as sent: `action` plus its parameters. */
export type LegacyActionInput = { action: string; [param: string]: unknown };
/** A legacy rule as sent and stored. */
export type LegacyRuleInput = Omit<LegacyRuleBody, 'conditions' | 'actions'> & {
  conditions?: LegacyConditionInput[];
  actions: LegacyActionInput[];
};

/** A validated condition. */
export interface LegacyCondition {
  op: LegacyConditionOp;
  field: string;
  scheme: 'data' | 'node';
  path: JsonPath;
  multiple: 'any' | 'all' | 'first';
  invert: boolean;
  /** Everything else the condition carries (`value`). */
  params: Record<string, unknown>;
}

/** A validated action. */
export interface LegacyAction {
  action: LegacyActionName;
  params: Record<string, unknown>;
}

/** A validated legacy rule. */
export interface LegacyRule {
  uuid: string | null;
  description: string | null;
  scope: string | null;
  conditions: LegacyCondition[];
  actions: LegacyAction[];
}

const CONDITION_PARAMS: Record<LegacyConditionOp, { required: string[]; optional: string[] }> = {
  eq: { required: ['value'], optional: [] },
  lt: { required: ['value'], optional: [] },
  gt: { required: ['value'], optional: [] },
  le: { required: ['value'], optional: [] },
  ge: { required: ['value'], optional: [] },
  ne: { required: ['value'], optional: [] },
  'in-net': { required: ['value'], optional: [] },
  matches: { required: ['value'], optional: [] },
  contains: { required: ['value'], optional: [] },
  'is-empty': { required: [], optional: [] },
};

const ACTION_PARAMS: Record<LegacyActionName, { required: string[]; optional: string[] }> = {
  fail: { required: ['message'], optional: [] },
  'set-attribute': { required: ['path', 'value'], optional: ['reset_interfaces'] },
  'set-capability': { required: ['name'], optional: ['value'] },
  'extend-attribute': { required: ['path', 'value'], optional: ['unique'] },
  'add-trait': { required: ['name'], optional: [] },
  'remove-trait': { required: ['name'], optional: [] },
};

/** Splits `node://a.b` / `data://a.b` / `a.b` into scheme and path (no scheme means `data`). */
export function splitFieldScheme(field: string): { scheme: string; path: string } {
  const i = field.indexOf('://');
  return i < 0 ? { scheme: 'data', path: field } : { scheme: field.slice(0, i), path: field.slice(i + 3) };
}

/**
 * Checks a legacy rule and returns it normalized, or the list of problems (each naming the field).
 * Does not throw.
 */
export function checkLegacyRule(input: unknown): { rule: LegacyRule; problems: [] } | { rule: null; problems: string[] } {
  const problems: string[] = schemaProblems(LegacyRuleBody, input);
  if (problems.length > 0) return { rule: null, problems };
  const raw = input as LegacyRuleInput;

  const conditions: LegacyCondition[] = [];
  (raw.conditions ?? []).forEach((c, i) => {
    const at = `conditions[${i}]`;
    const op = c.op as LegacyConditionOp;
    const spec = CONDITION_PARAMS[op];
    if (!spec) {
      problems.push(problem('legacyConditionOpUnknown', { at, op: c.op, supported: LEGACY_CONDITION_OPS.join(', ') }));
      return;
    }
    const { scheme, path } = splitFieldScheme(c.field);
    let parsed: JsonPath | null = null;
    if (scheme !== 'data' && scheme !== 'node') {
      problems.push(problem('legacyFieldSchemeUnsupported', { at, scheme }));
    } else {
      try {
        parsed = parseJsonPath(path);
      } catch (err) {
        problems.push(problem('legacyFieldPathInvalid', { at, field: c.field, reason: (err as Error).message }));
      }
    }
    const params = Object.fromEntries(Object.entries(c).filter(([k]) => !['op', 'field', 'multiple', 'invert'].includes(k)));
    problems.push(...paramProblems({ at, kind: 'operator', op }, params, spec));
    if ((op === 'matches' || op === 'contains') && typeof params.value === 'string') {
      const re = compilePyRegex(params.value);
      if (!re.ok) problems.push(problem('ruleRegexInvalid', { field: `${at}.value`, regex: params.value, reason: re.error }));
    } else if ((op === 'matches' || op === 'contains') && params.value !== undefined && params.value !== null) {
      problems.push(problem('legacyRegexNotString', { at }));
    }
    if (op === 'in-net' && params.value !== undefined && params.value !== null) {
      try {
        parseNetwork(String(params.value));
      } catch (err) {
        problems.push(problem('ruleNetworkInvalid', { field: `${at}.value`, reason: (err as Error).message }));
      }
    }
    if (parsed) {
      conditions.push({
        op,
        field: c.field,
        scheme: scheme as 'data' | 'node',
        path: parsed,
        multiple: c.multiple ?? 'any',
        invert: c.invert ?? false,
        params,
      });
    }
  });

  const actions: LegacyAction[] = [];
  raw.actions.forEach((a, i) => {
    const at = `actions[${i}]`;
    const name = a.action as LegacyActionName;
    const spec = ACTION_PARAMS[name];
    if (!spec) {
      problems.push(problem('legacyActionUnknown', { at, action: a.action, supported: LEGACY_ACTIONS.join(', ') }));
      return;
    }
    const params = Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'action'));
    // NOTE: set-attribute accepts an explicit null value (ironic-inspector's SetAttributeAction checks
    // for the key, not the value), so `value` counts as given when the key is present.
    const given = name === 'set-attribute' && 'value' in params ? { ...params, value: params.value ?? true } : params;
    problems.push(...paramProblems({ at, kind: 'action', op: name }, given, spec));
    for (const key of ['path', 'name', 'message']) {
      if (key in params && params[key] !== null && typeof params[key] !== 'string') problems.push(problem('ruleFieldNotString', { field: `${at}.${key}` }));
    }
    if (typeof params.path === 'string' && params.path.replace(/^\/+/, '') === '') problems.push(problem('legacyPathEmpty', { at }));
    const protoKey = typeof params.path === 'string' ? prototypeKeyIn(params.path.split('/')) : undefined;
    if (protoKey !== undefined) problems.push(problem('rulePathPrototypeKey', { field: `${at}.path`, key: protoKey }));
    actions.push({ action: name, params });
  });

  if (problems.length > 0) return { rule: null, problems };
  return {
    rule: { uuid: raw.uuid ?? null, description: raw.description ?? null, scope: raw.scope ?? null, conditions, actions },
    problems: [],
  };
}

/** Validates a legacy rule for creation; throws InvalidParameterValue listing every problem. */
export function validateLegacyRule(input: unknown): LegacyRule {
  const checked = checkLegacyRule(input);
  if (checked.rule) return checked.rule;
  throw fail('legacyRuleInvalid', { problems: checked.problems.join('; ') });
}

function paramProblems(place: OpPlace, params: Record<string, unknown>, spec: { required: string[]; optional: string[] }): string[] {
  // NOTE: like ironic-inspector, a parameter set to null counts as not given.
  const passed = Object.keys(params).filter((k) => params[k] !== null && params[k] !== undefined);
  const missing = spec.required.filter((k) => !passed.includes(k));
  const unexpected = passed.filter((k) => !spec.required.includes(k) && !spec.optional.includes(k));
  const out: string[] = [];
  if (missing.length > 0) out.push(problem('legacyParamsMissing', { ...place, missing: missing.join(', ') }));
  if (unexpected.length > 0) out.push(problem('legacyParamsUnexpected', { ...place, unexpected: unexpected.join(', ') }));
  return out;
}
