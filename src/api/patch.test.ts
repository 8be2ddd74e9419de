import { describe, expect, it } from 'vitest';
import { applyPatch, changedFields, parsePatch } from './patch.js';

const rules = { allowed: ['name', 'extra', 'driver'], mandatory: ['/driver'] };

describe('JSON Patch rules', () => {
  it('applies operations in order on a copy and reports the changed fields', () => {
    const before = { name: 'a', extra: { x: 1 }, driver: 'fake' };
    const ops = parsePatch(
      [{ op: 'replace', path: '/name', value: 'b' }, { op: 'add', path: '/extra/y', value: 2 }, { op: 'remove', path: '/extra/x' }],
      rules,
    );
    const after = applyPatch(structuredClone(before), ops);
    expect(after).toEqual({ name: 'b', extra: { y: 2 }, driver: 'fake' });
    expect(changedFields(before, after, rules.allowed)).toEqual({ name: 'b', extra: { y: 2 } });
  });

  it('refuses adding a new root attribute and names the failing operation', () => {
    expect(() => applyPatch({ name: 'a' }, parsePatch([{ op: 'add', path: '/extra', value: 1 }], { ...rules }))).toThrow(/root of the resource/);
    expect(() => applyPatch({ extra: {} }, parsePatch([{ op: 'replace', path: '/extra/none', value: 1 }], rules))).toThrow(/Couldn't apply patch/);
  });

  it('enforces op, path, value, internal, mandatory and allowed fields', () => {
    expect(() => parsePatch([{ op: 'copy', path: '/name' }], rules)).toThrow(/op "copy"/);
    expect(() => parsePatch([{ op: 'add', path: '/name' }], rules)).toThrow(/need a value/);
    expect(() => parsePatch([{ op: 'add', path: '/a b', value: 1 }], rules)).toThrow(/path/);
    expect(() => parsePatch([{ op: 'replace', path: '/uuid', value: 1 }], rules)).toThrow(/internal attribute/);
    expect(() => parsePatch([{ op: 'remove', path: '/driver' }], rules)).toThrow(/mandatory attribute/);
    expect(() => parsePatch([{ op: 'replace', path: '/owner', value: 'x' }], rules)).toThrow(/Cannot patch \/owner/);
    expect(() => parsePatch('nope', rules)).toThrow(/JSON array/);
  });

  it('refuses prototype keys anywhere in a path and treats inherited names as missing keys', () => {
    for (const path of ['/extra/__proto__/x', '/extra/constructor/prototype/x', '/extra/a/prototype', '/extra/constructor']) {
      expect(() => parsePatch([{ op: 'add', path, value: 1 }], rules)).toThrow(/cannot be used as a key/);
    }
    expect(() => applyPatch({ extra: {} }, parsePatch([{ op: 'replace', path: '/extra/hasOwnProperty', value: 1 }], rules))).toThrow(/non-existent object 'hasOwnProperty'/);
    expect(() => applyPatch({ extra: {} }, parsePatch([{ op: 'remove', path: '/extra/toString' }], rules))).toThrow(/non-existent object 'toString'/);
    expect(applyPatch({ extra: {} }, parsePatch([{ op: 'add', path: '/extra/toString', value: 1 }], rules))).toEqual({ extra: { toString: 1 } });
    // Below the parser, applying such a path (had one come through) still leaves every prototype alone.
    const raw = [{ op: 'add', path: '/extra/__proto__/polluted', value: 1 }] as unknown as Parameters<typeof applyPatch>[1];
    try {
      applyPatch({ extra: {} }, raw);
    } catch {
      // refused: as good as applied to an own key
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
