import { describe, expect, it } from 'vitest';
import { isLoopback } from './loopback.js';

describe('isLoopback', () => {
  it('knows the machine itself in every spelling, and nothing else', () => {
    for (const h of ['localhost', '127.0.0.1', '127.9.8.7', '::1', '[::1]', '0:0:0:0:0:0:0:1', '0000::0001', '::ffff:127.0.0.1', 'LOCALHOST']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '::2', '::10', '1::', '::ffff:10.0.0.1', '192.168.1.2', 'fe80::1', 'example.org', '128.0.0.1', '']) expect(isLoopback(h), h).toBe(false);
  });
});
