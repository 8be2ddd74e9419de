/**
 * Inspection rules: Ironic's `/v1/inspection_rules` format (API 1.96).
 *
 * ```yaml
 * - description: Configure iDRAC for Dell servers
 *   priority: 100
 *   conditions:
 *     - op: contains
 *       args: {value: "{inventory[system_vendor][manufacturer]}", regex: "(?i)dell"}
 *   actions:
 *     - op: set-attribute
 *       args: {path: /driver_info/redfish_address, value: "https://{inventory[bmc_address]}"}
 * ```
 *
 * Each condition and action is `{op, args, loop?}` (conditions also `multiple?`); `args` is a dict of
 * named arguments or (deprecated upstream) a list of them in signature order; `!op` negates a condition.
 * The validation here is what rule creation runs; problems name the rule field at fault.
 */
import { InspectionRuleBody } from '../../protocol/api/inspection-rule.js';
import { fail } from '../../shared/errors.js';
import { prototypeKeyIn } from '../../shared/own-keys.js';
import { problem, schemaProblems } from './schema-errors.js';
import { hasReplacementField } from './py-format.js';
import { compilePyRegex } from './py-regex.js';
import { parseNetwork } from './ip-net.js';
import { isPlainObject } from './py-values.js';
import { NODE_FIELDS, PORT_FIELDS } from './record-fields.js';

/** An operation's arguments: required names (in positional order), optional names with defaults. */
export interface OpSignature {
  required: readonly string[];
  optional: Readonly<Record<string, unknown>>;
  /** Arguments formatted with the templating variables (outside a loop; inside one, all are). */
  formatted: readonly string[];
}

/** Condition operators (without the `!` negation prefix) and their arguments. */
export const CONDITION_OPS = {
  eq: { required: ['values'], optional: { force_strings: false }, formatted: ['values'] },
  lt: { required: ['values'], optional: { force_strings: false }, formatted: ['values'] },
  gt: { required: ['values'], optional: { force_strings: false }, formatted: ['values'] },
  'is-empty': { required: ['value'], optional: {}, formatted: ['value'] },
  'in-net': { required: ['address', 'subnet'], optional: {}, formatted: ['address', 'subnet'] },
  matches: { required: ['value', 'regex'], optional: {}, formatted: ['value'] },
  contains: { required: ['value', 'regex'], optional: {}, formatted: ['value'] },
  'one-of': { required: ['value'], optional: { values: [] }, formatted: ['value'] },
  'is-none': { required: ['value'], optional: {}, formatted: ['value'] },
  'is-true': { required: ['value'], optional: {}, formatted: ['value'] },
  'is-false': { required: ['value'], optional: {}, formatted: ['value'] },
} as const satisfies Record<string, OpSignature>;
export type ConditionOp = keyof typeof CONDITION_OPS;

/** Actions and their arguments. */
export const ACTION_OPS = {
  fail: { required: ['msg'], optional: {}, formatted: ['msg'] },
  log: { required: ['msg'], optional: { level: 'info' }, formatted: ['msg'] },
  'set-attribute': { required: ['path', 'value'], optional: {}, formatted: ['value'] },
  'extend-attribute': { required: ['path', 'value'], optional: { unique: false }, formatted: ['value'] },
  'del-attribute': { required: ['path'], optional: {}, formatted: [] },
  'set-capability': { required: ['name', 'value'], optional: {}, formatted: ['value'] },
  'unset-capability': { required: ['name'], optional: {}, formatted: [] },
  'add-trait': { required: ['name'], optional: {}, formatted: [] },
  'remove-trait': { required: ['name'], optional: {}, formatted: [] },
  'set-plugin-data': { required: ['path', 'value'], optional: {}, formatted: ['value'] },
  'extend-plugin-data': { required: ['path', 'value'], optional: { unique: false }, formatted: ['value'] },
  'unset-plugin-data': { required: ['path'], optional: {}, formatted: [] },
  'set-port-attribute': { required: ['port_id', 'path', 'value'], optional: {}, formatted: ['value'] },
  'extend-port-attribute': { required: ['port_id', 'path', 'value'], optional: { unique: false }, formatted: ['value'] },
  'del-port-attribute': { required: ['port_id', 'path'], optional: {}, formatted: [] },
  'api-call': {
    required: ['url'],
    optional: { headers: null, proxies: null, timeout: 5, retries: 3, backoff_factor: 0.3 },
    formatted: ['url'],
  },
} as const satisfies Record<string, OpSignature>;
export type ActionOp = keyof typeof ACTION_OPS;

/** Log levels the `log` action accepts. */
export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;

/** The only inspection phase Ironic defines. */
export const INSPECTION_PHASES = ['main'] as const;

/** An inspection rule as sent (and as stored). */
export type InspectionRuleInput = InspectionRuleBody;

/** A validated condition. */
export interface InspectionCondition {
  /** The operator as written (`!eq`). */
  rawOp: string;
  op: ConditionOp;
  invert: boolean;
  /** Named arguments (a list was mapped onto the signature). */
  args: Record<string, unknown>;
  loop: unknown[] | Record<string, unknown> | null;
  multiple: 'any' | 'all' | 'first' | 'last';
}

/** A validated action. */
export interface InspectionAction {
  op: ActionOp;
  args: Record<string, unknown>;
  loop: unknown[] | Record<string, unknown> | null;
}

/** A validated inspection rule with defaults filled in. */
export interface InspectionRule {
  uuid: string | null;
  description: string | null;
  priority: number;
  sensitive: boolean;
  phase: 'main';
  conditions: InspectionCondition[];
  actions: InspectionAction[];
}

/** `builtIn`: a rule from the built-in rules file (any priority, any uuid string). */
export interface InspectionRuleCheckOptions {
  builtIn?: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Splits a negated operator: `"!eq"` / `"! eq"` -> `{op: 'eq', invert: true}`; null for more than one `!` (refused). */
export function parseInvertedOp(raw: string): { op: string; invert: boolean } | null {
  const op = raw.trim();
  if ((op.match(/!/g) ?? []).length > 1) return null;
  return { op: op.replace(/^!/, '').trim(), invert: op.startsWith('!') };
}

/** Where an operation's arguments are: the rule field (`conditions[0]`) and the operation (`operator eq`, `action log`). */
export interface OpPlace {
  at: string;
  kind: 'operator' | 'action';
  op: string;
}

/** Maps list-form arguments onto the signature; reports missing and unexpected arguments. */
export function normalizeArgs(args: unknown, sig: OpSignature, place: OpPlace): { args: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  let named: Record<string, unknown>;
  if (Array.isArray(args)) {
    const names = [...sig.required, ...Object.keys(sig.optional)];
    if (args.length < sig.required.length) {
      problems.push(problem('ruleArgsTooFew', { ...place, missing: sig.required.slice(args.length).join(', ') }));
    }
    if (args.length > names.length) problems.push(problem('ruleArgsTooMany', { ...place, given: args.length, accepted: names.length }));
    named = Object.fromEntries(args.slice(0, names.length).map((v, i) => [names[i]!, v]));
  } else if (isPlainObject(args)) {
    named = { ...args };
  } else {
    return { args: {}, problems: [problem('ruleArgsNotListOrDict', place)] };
  }
  const missing = sig.required.filter((k) => !Object.hasOwn(named, k));
  const unexpected = Object.keys(named).filter((k) => !sig.required.includes(k) && !Object.hasOwn(sig.optional, k));
  if (missing.length > 0 && !Array.isArray(args)) problems.push(problem('ruleArgsMissing', { ...place, missing: missing.join(', ') }));
  if (unexpected.length > 0) problems.push(problem('ruleArgsUnexpected', { ...place, unexpected: unexpected.join(', ') }));
  return { args: named, problems };
}

/** Checks an inspection rule; returns it normalized, or the problems (each naming the field). Never throws. */
export function checkInspectionRule(
  input: unknown,
  options: InspectionRuleCheckOptions = {},
): { rule: InspectionRule; problems: [] } | { rule: null; problems: string[] } {
  const problems: string[] = schemaProblems(InspectionRuleBody, input);
  if (problems.length > 0) return { rule: null, problems };
  const raw = input as InspectionRuleInput;

  if (raw.uuid && !options.builtIn && !UUID_RE.test(raw.uuid)) problems.push(problem('ruleUuidInvalid', { uuid: raw.uuid }));
  const priority = raw.priority ?? 0;
  if (!options.builtIn && (priority < 0 || priority > 9999)) problems.push(problem('rulePriorityOutOfRange', { priority }));
  const phase = raw.phase ?? 'main';
  if (!(INSPECTION_PHASES as readonly string[]).includes(phase)) {
    problems.push(problem('rulePhaseInvalid', { phase, phases: INSPECTION_PHASES.join(', ') }));
  }

  const conditions: InspectionCondition[] = [];
  (raw.conditions ?? []).forEach((c, i) => {
    const at = `conditions[${i}]`;
    const parsed = parseInvertedOp(c.op);
    if (parsed === null) {
      problems.push(problem('ruleOpNegatedTwice', { at }));
      return;
    }
    if (!Object.hasOwn(CONDITION_OPS, parsed.op)) {
      problems.push(problem('ruleConditionOpUnknown', { at, op: c.op, supported: Object.keys(CONDITION_OPS).join(', ') }));
      return;
    }
    const op = parsed.op as ConditionOp;
    const norm = normalizeArgs(c.args, CONDITION_OPS[op], { at, kind: 'operator', op });
    problems.push(...norm.problems);
    problems.push(...conditionArgProblems(at, op, norm.args, hasLoop(c.loop)));
    conditions.push({ rawOp: c.op, op, invert: parsed.invert, args: norm.args, loop: c.loop ?? null, multiple: c.multiple ?? 'any' });
  });

  const actions: InspectionAction[] = [];
  raw.actions.forEach((a, i) => {
    const at = `actions[${i}]`;
    if (a.op === 'api-call') {
      problems.push(problem('ruleApiCallUnsupported', { at }));
      return;
    }
    if (!Object.hasOwn(ACTION_OPS, a.op)) {
      problems.push(problem('ruleActionOpUnknown', { at, op: a.op, supported: Object.keys(ACTION_OPS).filter((o) => o !== 'api-call').join(', ') }));
      return;
    }
    const op = a.op as ActionOp;
    const norm = normalizeArgs(a.args, ACTION_OPS[op], { at, kind: 'action', op });
    problems.push(...norm.problems);
    problems.push(...actionArgProblems(at, op, norm.args, hasLoop(a.loop)));
    actions.push({ op, args: norm.args, loop: a.loop ?? null });
  });

  if (problems.length > 0) return { rule: null, problems };
  return {
    rule: {
      uuid: raw.uuid ?? null,
      description: raw.description ?? null,
      priority,
      sensitive: raw.sensitive ?? false,
      phase: 'main',
      conditions,
      actions,
    },
    problems: [],
  };
}

/** Validates an inspection rule for creation; throws InvalidParameterValue listing every problem. */
export function validateInspectionRule(input: unknown, options: InspectionRuleCheckOptions = {}): InspectionRule {
  const checked = checkInspectionRule(input, options);
  if (checked.rule) return checked.rule;
  throw fail('inspectionRuleInvalid', { problems: checked.problems.join('; ') });
}

/** Validates a rule document as {@link validateInspectionRule} does and returns it as sent, typed. */
export function checkInspectionRuleBody(input: unknown): InspectionRuleInput {
  validateInspectionRule(input);
  return input as InspectionRuleInput;
}

function hasLoop(loop: unknown): boolean {
  return Array.isArray(loop) ? loop.length > 0 : isPlainObject(loop) && Object.keys(loop).length > 0;
}

/** A value that is only known once templated (a string with a replacement field, or anything in a loop). */
function literal(value: unknown, looped: boolean): value is string {
  return typeof value === 'string' && !looped && !hasReplacementField(value);
}

function conditionArgProblems(at: string, op: ConditionOp, args: Record<string, unknown>, looped: boolean): string[] {
  const out: string[] = [];
  if ((op === 'eq' || op === 'lt' || op === 'gt') && 'values' in args && !Array.isArray(args.values) && !looped) {
    out.push(problem('ruleValuesNotComparable', { at, op }));
  }
  if (op === 'one-of' && 'values' in args && !Array.isArray(args.values) && !looped) out.push(problem('ruleValuesNotList', { at }));
  if ((op === 'matches' || op === 'contains') && 'regex' in args) {
    if (typeof args.regex !== 'string') out.push(problem('ruleRegexNotString', { at, op }));
    else if (!looped) {
      const re = compilePyRegex(args.regex);
      if (!re.ok) out.push(problem('ruleRegexInvalid', { field: `${at}.args.regex`, regex: args.regex, reason: re.error }));
    }
  }
  if (op === 'in-net' && literal(args.subnet, looped)) {
    try {
      parseNetwork(args.subnet);
    } catch (err) {
      out.push(problem('ruleNetworkInvalid', { field: `${at}.args.subnet`, reason: (err as Error).message }));
    }
  }
  return out;
}

function actionArgProblems(at: string, op: ActionOp, args: Record<string, unknown>, looped: boolean): string[] {
  const out: string[] = [];
  if (op === 'log' && 'level' in args && literal(args.level, looped) && !(LOG_LEVELS as readonly string[]).includes(args.level.toLowerCase())) {
    out.push(problem('ruleLogLevelInvalid', { at, level: args.level, levels: LOG_LEVELS.join(', ') }));
  }
  for (const key of ['path', 'name', 'port_id'] as const) {
    if (key in args && typeof args[key] !== 'string') out.push(problem('ruleFieldNotString', { field: `${at}.args.${key}` }));
  }
  if ('path' in args && literal(args.path, looped)) {
    const parts = attributePath(args.path);
    const fields = op.endsWith('-port-attribute') ? PORT_FIELDS : op.endsWith('-attribute') ? NODE_FIELDS : null;
    const protoKey = prototypeKeyIn(args.path.split(/[./]/));
    if (parts.length === 0 || parts.some((p) => p === '')) out.push(problem('rulePathInvalid', { at, path: args.path }));
    else if (protoKey !== undefined) out.push(problem('rulePathPrototypeKey', { field: `${at}.args.path`, key: protoKey }));
    else if (fields && !fields.has(parts[0]!)) {
      out.push(problem('rulePathNotField', { at, field: parts[0]!, record: op.endsWith('-port-attribute') ? 'port' : 'node' }));
    }
  }
  return out;
}

/** Splits an attribute path: slash notation (`/driver_info/ipmi_address`) or dot notation (`driver_info.ipmi_address`). */
export function attributePath(path: string): string[] {
  if (path.includes('/')) return path.replace(/^\/+|\/+$/g, '').split('/');
  return path.split('.');
}
