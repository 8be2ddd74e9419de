import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INGOT_VERSION } from './version.js';

describe('INGOT_VERSION', () => {
  it('is the version package.json releases', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(INGOT_VERSION).toBe(pkg.version);
  });
});
