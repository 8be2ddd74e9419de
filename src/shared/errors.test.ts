import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS, IngotError, errorMessage, fail } from './errors.js';
import { MESSAGE_TABLES, MESSAGES } from './messages/index.js';

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

  it('carries code, status and hint, with the message of the code rendered from values', () => {
    const err = fail('NodeLocked', { node: 'n-1', host: 'c-2' });
    expect(err).toBeInstanceOf(IngotError);
    expect(err.status).toBe(409);
    expect(err.code).toBe('NodeLocked');
    expect(err.message).toBe('Node n-1 is locked by host c-2, please retry after the current operation is completed.');
    expect(err.hint).toMatch(/retry/);
  });

  it('keeps a cause, and renders values as they are given (no second pass over them)', () => {
    const cause = new Error('boom');
    const err = fail('NodeNotFound', { node: '{node}' }, { cause });
    expect(err.message).toBe('Node {node} could not be found.');
    expect(err.cause).toBe(cause);
    expect(errorMessage('NoValidHost', { reason: 'none' })).toEqual({ code: 'NoValidHost', message: 'No valid host was found. Reason: none' });
  });

  it('masks secrets that values bring into a message', () => {
    const err = fail('imageDownloadFailed', { image: 'http://u:pw-4321@10.0.0.1/i.raw', reason: 'BMC said password=pw-8765' });
    expect(err.message).toBe('Download of image http://u:******@10.0.0.1/i.raw failed: BMC said password=******');
  });

  it('types the values a message needs', () => {
    // @ts-expect-error NodeNotFound needs {node}
    expect(fail('NodeNotFound', {}).message).toBe('Node {node} could not be found.');
    // @ts-expect-error no such message
    expect(fail('NoSuchMessage', {}).code).toBe('Internal');
  });
});

describe('the message tables', () => {
  const entries = Object.entries(MESSAGE_TABLES).flatMap(([area, table]) => Object.entries(table).map(([id, spec]) => ({ area, id, ...(spec as { code: string; text: string }) })));

  it('name each message once, apart from the codes', () => {
    const seen = new Map<string, string>(Object.keys(ERRORS).map((c) => [c, 'the code table']));
    for (const { area, id } of entries) {
      expect(seen.get(id), `message ${id} of ${area} is also in ${seen.get(id)}`).toBeUndefined();
      seen.set(id, area);
    }
    expect(Object.keys(MESSAGES).length).toBe(seen.size - Object.values(ERRORS).filter((e) => !('message' in e)).length);
  });

  it('say each thing once: no two messages have the same text', () => {
    const texts = new Map<string, string>();
    for (const [id, spec] of Object.entries(MESSAGES) as [string, { text: string }][]) {
      expect(texts.get(spec.text), `${id} reads as ${texts.get(spec.text)}`).toBeUndefined();
      texts.set(spec.text, id);
    }
  });

  it('raise known codes, with lowerCamelCase ids', () => {
    for (const { area, id, code } of entries) {
      expect(Object.keys(ERRORS), `${area}.${id}`).toContain(code);
      expect(id, `${area}.${id}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
  });
});
