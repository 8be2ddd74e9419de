/** The capabilities rule actions set and unset, in the "k:v,k:v" form or a dict. */
import { describe, expect, it } from 'vitest';
import { parseCapabilities } from '../capabilities.js';
import { updateCapabilities } from './capabilities.js';

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
