import * as Type from 'typebox/type';
import { describe, expect, it } from 'vitest';
import { stringEnum, nullable } from '../protocol/schema-kit.js';
import { checkBody, checkChanged } from './validate.js';

const Body = Type.Object(
  {
    name: Type.String({ maxLength: 5 }),
    mode: Type.Optional(nullable(stringEnum(['fast', 'slow']))),
    kind: Type.Optional(Type.Literal('x')),
    sizes: Type.Optional(Type.Array(Type.Integer())),
  },
  { additionalProperties: false },
);

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('no error');
}

describe('checkBody', () => {
  it('returns the body as the schema types it', () => {
    const body = checkBody('thing', { name: 'a', mode: 'fast', sizes: [1, 2] }, Body);
    const mode: 'fast' | 'slow' | null | undefined = body.mode;
    expect([body.name, mode, body.sizes]).toEqual(['a', 'fast', [1, 2]]);
  });

  it('names the field, the value and what was expected', () => {
    expect(message(() => checkBody('thing', [], Body))).toBe('Invalid input for thing: expected a JSON object, got array.');
    expect(message(() => checkBody('thing', {}, Body))).toBe("Invalid input for thing: 'name' is a required property.");
    expect(message(() => checkBody('thing', { name: 'a', colour: 1 }, Body))).toBe(
      "Invalid input for thing: unknown field 'colour'. Additional properties are not allowed ('colour' was unexpected).",
    );
    expect(message(() => checkBody('thing', { name: 'abcdef' }, Body))).toBe('Invalid input for field/attribute name. Value is longer than 5 characters.');
    expect(message(() => checkBody('thing', { name: 'a', mode: 'medium' }, Body))).toBe(
      'Invalid input for field/attribute mode. Value: "medium". Value should be one of: fast, slow.',
    );
    expect(message(() => checkBody('thing', { name: 'a', kind: 'y' }, Body))).toBe('Invalid input for field/attribute kind. Value: "y". Expected "x", got string.');
    expect(message(() => checkBody('thing', { name: 'a', sizes: [1, 'b'] }, Body))).toBe('Invalid input for field/attribute sizes[1]. Value: "b". Expected integer, got string.');
  });
});

describe('checkChanged', () => {
  it('type-checks the changed fields, lets a removed one (null) through', () => {
    expect(checkChanged({ name: 'b', mode: null }, Body)).toEqual({ name: 'b', mode: null });
    expect(message(() => checkChanged({ sizes: 'x' }, Body))).toBe('Invalid input for field/attribute sizes. Value: "x". Expected array, got string.');
  });
});
