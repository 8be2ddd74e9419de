import { describe, expect, it } from 'vitest';
import { parseLdd } from './rootfs.js';

describe('parseLdd', () => {
  it('lists the libraries and the loader of a dynamic program, without the vDSO', () => {
    const out = `\tlinux-vdso.so.1 (0x00007ffd5a1f2000)
\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f4222096000)
\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f4221e00000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f4221b3e000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f42220b1000)
`;
    expect(parseLdd(out)).toEqual(['/lib/x86_64-linux-gnu/libdl.so.2', '/lib/x86_64-linux-gnu/libstdc++.so.6', '/lib/x86_64-linux-gnu/libc.so.6', '/lib64/ld-linux-x86-64.so.2']);
  });

  it('lists nothing for a static program', () => {
    expect(parseLdd('\tnot a dynamic executable\n')).toEqual([]);
    expect(parseLdd('\tstatically linked\n')).toEqual([]);
  });

  it('fails for a library that is not found', () => {
    expect(() => parseLdd('\tlibfoo.so.1 => not found\n')).toThrow(/libfoo\.so\.1 not found/);
  });
});
