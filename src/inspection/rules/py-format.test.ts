/** The Python str.format subset of rule templates (`{inventory[cpu][count]}`, `{node.name}`). */
import { describe, expect, it } from 'vitest';
import { FormatError, hasReplacementField, pyFormat } from './py-format.js';
import { makeInventory } from './rules-context.test-support.js';

const data = { inventory: makeInventory(), memory_mb: 16384, extra: { 'a.b': 1, 'x y': 2 } };

describe('Python str.format subset', () => {
  const scope = { values: { data, node: { name: 'n1', properties: { cpus: 4 } } }, objects: new Set(['node']) };

  it('substitutes [key] and .attr fields as Python str() renders them', () => {
    expect(pyFormat('{data[inventory][bmc_address]}', scope)).toBe('10.0.0.7');
    expect(pyFormat('https://{data[inventory][bmc_address]}:443', scope)).toBe('https://10.0.0.7:443');
    expect(pyFormat('{node.name}/{node.properties[cpus]}', scope)).toBe('n1/4');
    expect(pyFormat('{data[inventory][interfaces][1][ipv4_address]}', scope)).toBe('None');
    expect(pyFormat('{data[inventory][cpu][flags]}', scope)).toBe("['vmx', 'aes']");
    expect(pyFormat('{{literal}} {data[memory_mb]!r}', scope)).toBe('{literal} 16384');
  });

  it('raises KeyError / AttributeError like Python', () => {
    expect(() => pyFormat('{data[nope]}', scope)).toThrow(FormatError);
    expect(() => pyFormat('{data[nope]}', scope)).toThrow("'nope'");
    // dicts have no attributes: {inventory.bmc_address} fails upstream too
    expect(() => pyFormat('{data.inventory}', scope)).toThrow(/has no attribute/);
    expect(() => pyFormat('{missing}', scope)).toThrow(/'missing'/);
    expect(() => pyFormat('a } b', scope)).toThrow(/Single '\}'/);
  });

  it('knows a template from a literal', () => {
    expect(hasReplacementField('{inventory[x]}')).toBe(true);
    expect(hasReplacementField('{{not}}')).toBe(false);
    expect(hasReplacementField('plain')).toBe(false);
  });
});
