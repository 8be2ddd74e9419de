/**
 * Reads the built-in inspection rules file named by `inspector.built_in_rules` (YAML or JSON), once at
 * start-up: a missing file or a bad rule stops Ingot with a message naming the file and the rule.
 * The YAML parser is loaded only when there is a file: a server without one never parses its code.
 */
import { readFileSync } from 'node:fs';
import { parseBuiltinInspectionRules, type InspectionRuleInput } from '../inspection/rules/index.js';
import { fail } from '../shared/errors.js';

/** The rules of `path`, or none when `path` is empty. @throws IngotError ConfigInvalid. */
export async function loadBuiltInRules(path: string): Promise<InspectionRuleInput[]> {
  if (path === '') return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw fail('builtInRulesUnreadable', { path, reason: (err as Error).message });
  }
  const { parse: parseYaml } = await import('yaml');
  return parseBuiltinInspectionRules(text, { parseYaml: (t) => parseYaml(t) as unknown, source: path });
}
