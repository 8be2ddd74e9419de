/** The JSONPath subset legacy rule fields and inspection rule loops read data with. */
import { describe, expect, it } from 'vitest';
import { findJsonPath, parseJsonPath } from './json-path.js';
import { makeInventory } from './rules-context.test-support.js';

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
