import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBuiltInRules } from './built-in-rules.js';

const dir = mkdtempSync(join(tmpdir(), 'ingot-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('built-in inspection rules file', () => {
  it('reads YAML with defaults and synthetic uuids; empty path means none', async () => {
    const file = join(dir, 'rules.yaml');
    writeFileSync(file, [
      '- description: Dell iDRAC',
      '  priority: 100',
      '  conditions:',
      '    - op: contains',
      '      args: {value: "{inventory[system_vendor][manufacturer]}", regex: "(?i)dell"}',
      '  actions:',
      '    - op: set-attribute',
      '      args: {path: /driver, value: idrac}',
      '- actions: [{op: add-trait, args: {name: CUSTOM_SEEN}}]',
    ].join('\n'));
    const rules = await loadBuiltInRules(file);
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatchObject({ uuid: '00000000-0000-0000-0000-000000000000', priority: 100, phase: 'main', sensitive: false });
    expect(rules[1]).toMatchObject({ uuid: '00000000-0000-0000-0000-000000000001', priority: 0, conditions: [] });
    expect(await loadBuiltInRules('')).toEqual([]);
  });

  it('stops start-up naming the file and the rule at fault', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, '- actions: [{op: explode, args: {}}]\n');
    await expect(loadBuiltInRules(bad)).rejects.toThrow(new RegExp(`${bad}: rule 0 .*explode`));
    await expect(loadBuiltInRules(join(dir, 'missing.yaml'))).rejects.toThrow(/inspector.built_in_rules: cannot read .*missing.yaml/);
    writeFileSync(bad, 'actions: [');
    await expect(loadBuiltInRules(bad)).rejects.toThrow(/invalid YAML/);
  });
});
