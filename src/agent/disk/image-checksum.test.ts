import { describe, it, expect } from 'vitest';
import type { AgentRestError } from '../api/errors.js';
import { expectedChecksum, pickChecksum, validateImageInfo } from './image-checksum.js';

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as AgentRestError;
  }
  throw new Error('no error');
};

describe('image checksums', () => {
  it('validates image_info as IPA does', () => {
    expect(errorOf(() => validateImageInfo({ urls: ['u'] })).details).toBe("Image is missing 'id' field.");
    expect(errorOf(() => validateImageInfo({ id: 'i', urls: ['u'] })).details).toMatch(/either the 'checksum' field or the 'os_hash_algo'/);
    expect(errorOf(() => validateImageInfo({ id: 'i', urls: ['u'], os_hash_algo: 'sha256' })).details).toBe("Image 'os_hash_value' must be a non-empty string.");
    expect(() => validateImageInfo({ id: 'i', urls: ['u'], checksum: 'abc' })).not.toThrow();
  });

  it('prefers os_hash_*, falls back to the legacy MD5 field, and honours the MD5 switch', () => {
    expect(expectedChecksum({ id: 'i', urls: [], os_hash_algo: 'SHA512', os_hash_value: 'AB ' }, false)).toEqual({ algo: 'sha512', value: 'ab' });
    expect(expectedChecksum({ id: 'i', urls: [], os_hash_algo: 'nosuch', os_hash_value: 'x', checksum: 'cd' }, true)).toEqual({ algo: 'md5', value: 'cd' });
    expect(errorOf(() => expectedChecksum({ id: 'i', urls: [], checksum: 'cd' }, false)).details).toMatch(/MD5, which the conductor does not allow/);
  });

  it('picks the image’s line from a checksum file, in every format the conductor reads', () => {
    const a = 'ab'.repeat(32);
    const b = 'cd'.repeat(32);
    expect(pickChecksum(`${a.toUpperCase()}\n`, 'http://x/a.img', 'http://x/SUMS')).toBe(a);
    expect(pickChecksum(`${b}  b.img\n${a} *a.img\n`, 'http://x/dir/a.img?temp=1', 'http://x/SUMS')).toBe(a);
    expect(pickChecksum(`SHA256 (b.img) = ${b}\nSHA256 (a.img) = ${a}\n`, 'http://x/a.img', 'http://x/SUMS')).toBe(a);
    expect(() => pickChecksum(`${b}  b.img\n`, 'http://x/a.img', 'http://x/SUMS')).toThrow('Checksum file http://x/SUMS has no line for a.img.');
  });
});
