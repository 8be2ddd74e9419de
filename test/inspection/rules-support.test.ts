/** The building blocks both rules engines rely on: JSONPath, Python formatting, regexes, networks, capabilities. */
import { describe, expect, it } from 'vitest';
import { findJsonPath, parseJsonPath } from '../../src/inspection/rules/json-path.js';
import { FormatError, hasReplacementField, pyFormat } from '../../src/inspection/rules/py-format.js';
import { compilePyRegex } from '../../src/inspection/rules/py-regex.js';
import { ipInNetwork, parseIp, parseNetwork } from '../../src/inspection/rules/ip-net.js';
import { parseCapabilities } from '../../src/inspection/capabilities.js';
import { updateCapabilities } from '../../src/inspection/rules/capabilities.js';
import { pyCompare, pyEquals, pyRepr, pyStr } from '../../src/inspection/rules/py-values.js';
import { makeInventory } from './rules-fixtures.js';

const data = { inventory: makeInventory(), memory_mb: 16384, extra: { 'a.b': 1, 'x y': 2 } };
const find = (p: string): unknown[] => findJsonPath(parseJsonPath(p), data);

describe('JSONPath subset', () => {
  it('reads dotted fields, with or without $', () => {
    expect(find('inventory.cpu.count')).toEqual([8]);
    expect(find('$.inventory.cpu.count')).toEqual([8]);
    expect(find('memory_mb')).toEqual([16384]);
  });

  it('maps [*] over lists and indexes them', () => {
    expect(find('inventory.interfaces[*].ipv4_address')).toEqual(['192.168.122.10', null]);
    expect(find('inventory.disks[0].size')).toEqual([480103981056]);
    expect(find('inventory.disks[-1].name')).toEqual(['/dev/sdb']);
    expect(find('inventory.disks[0:1].name')).toEqual(['/dev/sda']);
  });

  it('yields nothing for a missing field (not null), and treats [*] on a non-list as one element', () => {
    expect(find('inventory.nope')).toEqual([]);
    expect(find('inventory.interfaces.name')).toEqual([]);
    expect(find('inventory.cpu[*].count')).toEqual([8]);
  });

  it('supports quoted names, wildcards and descendants', () => {
    expect(find("extra.'a.b'")).toEqual([1]);
    expect(find("extra['x y']")).toEqual([2]);
    expect(find('extra.*')).toEqual([1, 2]);
    expect(find('$..mac_address')).toEqual(['52:54:00:aa:bb:01', '52:54:00:aa:bb:02']);
  });

  it('refuses malformed paths with the position', () => {
    expect(() => parseJsonPath('inventory.[')).toThrow(/position/);
    expect(() => parseJsonPath('a[1')).toThrow(/missing '\]'/);
    expect(() => parseJsonPath('')).toThrow(/empty/);
    expect(() => parseJsonPath('a b')).toThrow(/unexpected/);
  });
});

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

describe('Python values', () => {
  it('stringify and compare like Python', () => {
    expect(pyStr(null)).toBe('None');
    expect(pyStr(true)).toBe('True');
    expect(pyRepr({ a: [1, "it's"] })).toBe(`{'a': [1, "it's"]}`);
    expect(pyEquals('8', 8)).toBe(false);
    expect(pyEquals([1, { a: 2 }], [1, { a: 2 }])).toBe(true);
    expect(pyCompare('a', 'b')).toBeLessThan(0);
    expect(() => pyCompare('a', 1)).toThrow(/cannot order str and int/);
  });
});

describe('Python regular expressions', () => {
  it('honours leading inline flags and named groups', () => {
    const r = compilePyRegex('(?i)dell');
    expect(r.ok && r.regex.test('Dell Inc.')).toBe(true);
    const g = compilePyRegex('(?P<v>\\d+)-(?P=v)');
    expect(g.ok && g.regex.test('12-12')).toBe(true);
  });

  it('fullmatch anchors the whole value, search does not', () => {
    const full = compilePyRegex('Power.*', 'fullmatch');
    const alt = compilePyRegex('a|b', 'fullmatch');
    expect(full.ok && full.regex.test('PowerEdge R640')).toBe(true);
    expect(full.ok && full.regex.test('Dell PowerEdge')).toBe(false);
    expect(alt.ok && alt.regex.test('ab')).toBe(false);
  });

  it('reports an invalid pattern', () => {
    const bad = compilePyRegex('(unclosed');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/Unterminated group/);
  });
});

describe('IP networks', () => {
  it('tests membership for IPv4 and IPv6 forms netaddr accepts', () => {
    const addr = parseIp('192.168.122.10')!;
    expect(ipInNetwork(addr, parseNetwork('192.168.122.0/24'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('192.168.122.77/24'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('192.168.0.0/255.255.255.0'))).toBe(false);
    expect(ipInNetwork(addr, parseNetwork('192.168.122.10'))).toBe(true);
    expect(ipInNetwork(parseIp('fd00::1')!, parseNetwork('fd00::/64'))).toBe(true);
    expect(ipInNetwork(parseIp('::ffff:10.1.2.3')!, parseNetwork('::ffff:10.0.0.0/104'))).toBe(true);
    expect(ipInNetwork(addr, parseNetwork('fd00::/8'))).toBe(false);
  });

  it('refuses bad networks and addresses', () => {
    expect(() => parseNetwork('192.168.1.0/33')).toThrow(/prefix length/);
    expect(() => parseNetwork('not-a-net')).toThrow(/not an IP network/);
    expect(() => parseNetwork('10.0.0.0/255.0.255.0')).toThrow(/non-contiguous/);
    expect(parseIp('999.1.1.1')).toBeNull();
    expect(parseIp('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});

describe('capabilities', () => {
  it('parses and updates the "k:v,k:v" form in place, and keeps a dict a dict', () => {
    expect([...parseCapabilities('boot_mode:uefi,cpu_vt:true')]).toEqual([['boot_mode', 'uefi'], ['cpu_vt', 'true']]);
    expect(updateCapabilities('boot_mode:bios,x:1', 'boot_mode', 'uefi')).toBe('boot_mode:uefi,x:1');
    expect(updateCapabilities('', 'a', 1)).toBe('a:1');
    expect(updateCapabilities('a:1,b:2', 'a', undefined)).toBe('b:2');
    expect(updateCapabilities({ a: '1' }, 'b', '2')).toEqual({ a: '1', b: '2' });
    expect(() => parseCapabilities('novalue')).toThrow(/"novalue" is not key:value/);
  });
});
