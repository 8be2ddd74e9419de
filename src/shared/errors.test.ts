import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS, IngotError, fail } from './errors.js';

describe('the error table', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

  it('documents every code in docs/errors.md with its status', () => {
    for (const [code, { status }] of Object.entries(ERRORS)) {
      expect(doc, `docs/errors.md lacks ${code}`).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`));
    }
  });

  it('documents no code that does not exist', () => {
    const documented = [...doc.matchAll(/^\|\s*`(\w+)`\s*\|/gm)].map((m) => m[1]);
    for (const code of documented) expect(Object.keys(ERRORS)).toContain(code);
  });

  it('carries code, status and hint', () => {
    const err = fail('NodeLocked', 'Node x is locked by host y, please retry after the current operation is completed.');
    expect(err).toBeInstanceOf(IngotError);
    expect(err.status).toBe(409);
    expect(err.code).toBe('NodeLocked');
    expect(err.hint).toMatch(/retry/);
  });
});
