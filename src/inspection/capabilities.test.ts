import { describe, it, expect } from 'vitest';
import { parseCapabilities, updateCapabilities } from './capabilities.js';

describe('capabilities', () => {
  it('merges updates into the existing string, keeping order, later values winning', () => {
    expect(updateCapabilities('boot_mode:bios,foo:bar', { boot_mode: 'uefi', cpu_vt: 'true' })).toBe('boot_mode:uefi,foo:bar,cpu_vt:true');
    expect(updateCapabilities(undefined, { gpu: 2 })).toBe('gpu:2');
    expect(updateCapabilities('', {})).toBe('');
  });
  it('accepts the dict form and values containing colons', () => {
    expect(updateCapabilities({ a: 'b' }, { c: 'd' })).toBe('a:b,c:d');
    expect([...parseCapabilities('url:http://x')]).toEqual([['url', 'http://x']]);
  });
  it('rejects a malformed string', () => {
    expect(() => parseCapabilities('novalue')).toThrow("Invalid capabilities string 'novalue': \"novalue\" is not key:value.");
  });
});
