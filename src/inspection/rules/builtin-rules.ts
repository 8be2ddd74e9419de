/**
 * Built-in inspection rules: a list of rules an operator ships in a file (Ironic's
 * `[inspection_rules]built_in_rules`). They cannot be changed through the API, may use any priority and
 * any uuid string, and get defaults for what they leave out. A rule without a uuid gets a synthetic one,
 * `00000000-0000-0000-0000-000000000000`, `…001`, … in file order, as Ironic numbers them.
 *
 * The file is JSON, or YAML when the caller passes a YAML parser (`main/` owns file reading and library
 * choices; this module stays pure).
 */
import { fail } from '../../shared/errors.js';
import { checkInspectionRule, type InspectionRuleInput } from './inspection-rules.js';
import { isPlainObject } from './py-values.js';

/** How to read the file. */
export interface BuiltinRulesOptions {
  /** Parses YAML text (e.g. js-yaml's `load`); without it only JSON is accepted. */
  parseYaml?: (text: string) => unknown;
  /** Where the text came from, for messages (a file path). */
  source?: string;
}

/** The synthetic uuid Ironic gives the `index`-th built-in rule that has none. */
export function syntheticRuleUuid(index: number): string {
  return `00000000-0000-0000-0000-${index.toString(16).padStart(12, '0')}`;
}

/**
 * Parses and validates a built-in rules document (a JSON or YAML list of inspection rules). Returns the
 * rules with defaults filled in, in file order; throws ConfigInvalid naming the rule and field at fault.
 */
export function parseBuiltinInspectionRules(text: string, options: BuiltinRulesOptions = {}): InspectionRuleInput[] {
  const source = options.source ?? 'built-in inspection rules';
  let doc: unknown;
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw fail('builtinRulesJsonInvalid', { source, reason: (err as Error).message });
    }
  } else if (options.parseYaml) {
    try {
      doc = options.parseYaml(text);
    } catch (err) {
      throw fail('builtinRulesYamlInvalid', { source, reason: (err as Error).message });
    }
  } else {
    throw fail('builtinRulesNeedYaml', { source });
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw fail('builtinRulesNotList', { source });

  let synthetic = 0;
  return doc.map((entry, i) => {
    if (!isPlainObject(entry)) throw fail('builtinRuleNotMapping', { source, index: i });
    const rule: Record<string, unknown> = {
      uuid: entry.uuid ?? syntheticRuleUuid(synthetic++),
      priority: entry.priority ?? 0,
      description: entry.description ?? null,
      sensitive: entry.sensitive ?? false,
      phase: entry.phase ?? 'main',
      conditions: entry.conditions ?? [],
      actions: entry.actions ?? [],
    };
    const unknown = Object.keys(entry).filter((k) => !(k in rule));
    if (unknown.length > 0) throw fail('builtinRuleUnknownFields', { source, index: i, fields: unknown.join(', ') });
    const checked = checkInspectionRule(rule, { builtIn: true });
    if (checked.rule === null) {
      throw fail('builtinRuleInvalid', { source, index: i, uuid: String(rule.uuid), problems: checked.problems.join('; ') });
    }
    return rule as InspectionRuleInput;
  });
}
