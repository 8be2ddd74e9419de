/**
 * Reads the built-in inspection rules file named by `inspector.built_in_rules` (YAML or JSON), once at
 * start-up: a missing file or a bad rule stops Ingot with a message naming the file and the rule.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseBuiltinInspectionRules, type InspectionRuleInput } from '../inspector/rules/index.js';
import { fail } from '../shared/errors.js';

/** The rules of `path`, or none when `path` is empty. @throws IngotError ConfigInvalid. */
export function loadBuiltInRules(path: string): InspectionRuleInput[] {
  if (path === '') return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw fail('ConfigInvalid', `inspector.built_in_rules: cannot read ${path}: ${(err as Error).message}`);
  }
  return parseBuiltinInspectionRules(text, { parseYaml: (t) => parseYaml(t) as unknown, source: path });
}
