import { execFileSync } from 'node:child_process';
import type { TSchema } from 'typebox';
import * as Type from 'typebox/type';
import { describe, expect, it } from 'vitest';
import { VmediaAttachBody } from './api/bodies.js';
import { CleanStepsBody, DeployStepsBody, ServiceStepsBody } from './api/steps.js';
import { longSchemaMessage, schemaError, shortSchemaMessage } from './json-schema-errors.js';

/** What Debian's python3-jsonschema (the library Ironic validates with) raises for each case. */
function pythonErrors(cases: Array<{ schema: TSchema; instance: unknown }>): unknown[] {
  const script = [
    'import json, sys',
    'try:',
    '    import jsonschema',
    'except ImportError:',
    '    sys.exit("python3-jsonschema is missing: apt-get install python3-jsonschema (scripts/test-setup.sh)")',
    'out = []',
    'for case in json.load(sys.stdin):',
    '    try:',
    '        jsonschema.validate(case["instance"], case["schema"])',
    '        out.append(None)',
    '    except jsonschema.ValidationError as e:',
    '        out.append({"message": e.message, "keyword": e.validator, "schemaPath": list(e.relative_schema_path),',
    '                    "path": list(e.relative_path), "short": " ".join(str(e).split("\\n")[:3])[:-1]})',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8' })) as unknown[];
}

const Sample = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 4, pattern: '^[a-z]+$' }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    kind: Type.Optional(Type.Literal('x')),
    tags: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 2 })),
    labels: Type.Optional(Type.Record(Type.String(), Type.Integer())),
    either: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })])),
  },
  { additionalProperties: false },
);

const CASES: Array<{ schema: TSchema; instance: unknown }> = [
  ...[
    [],
    [{ interface: 'deploy', step: 'erase_devices' }],
    [{ interface: 'deploy', step: 'erase_devices', args: { a: 1 } }],
    [5],
    [{ interface: 'boot', step: 'x' }],
    [{ interface: 'deploy', step: '' }],
    [{ interface: 'deploy' }],
    [{ step: 'x' }],
    [{ interface: 'deploy', step: 'x', priority: 1 }],
    [{ interface: 'deploy', step: 'x', args: [] }],
    [{ interface: 'deploy', step: 'x' }, { interface: 'nope', step: 'y' }],
    [{ interface: 'nope', step: 'x' }, { interface: 'deploy', step: '' }],
    {},
    'steps',
    [{ interface: 7, step: 8 }],
  ].flatMap((instance) => [{ schema: CleanStepsBody, instance }, { schema: ServiceStepsBody, instance }]),
  ...[
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: 100 }],
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: '100' }],
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: -1 }],
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: 'high' }],
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: 1.5 }],
    [{ interface: 'deploy', step: 'deploy', priority: 1 }],
    [{ interface: 5, step: 'deploy', args: {}, priority: 1 }],
    [{ interface: 'deploy', step: 'deploy', args: {}, priority: true }],
  ].map((instance) => ({ schema: DeployStepsBody, instance })),
  ...[
    { device_type: 'cdrom', image_url: 'http://a/b.iso' },
    { image_url: 'http://a/b.iso' },
    { device_type: 'usb', image_url: 7 },
    { device_type: 'cdrom', image_url: 'u', username: 'x' },
    { device_type: 'cdrom', image_url: 'u', image_download_source: 'glance' },
    ['http://a/b.iso'],
    null,
  ].map((instance) => ({ schema: VmediaAttachBody, instance })),
  ...[
    { name: 'ab' },
    { name: 'a' },
    { name: 'abcde' },
    { name: 'AB' },
    { name: 'ab', count: 0 },
    { name: 'ab', count: 4 },
    { name: 'ab', kind: 'y' },
    { name: 'ab', tags: [] },
    { name: 'ab', tags: ['a', 'b', 'c'] },
    { name: 'ab', labels: { a: 1, b: 'two' } },
    { name: 'ab', either: -1 },
    { name: 'ab', either: 'x' },
    { name: 'ab', either: null },
    { name: 'ab', extra: 1 },
    { name: 5, count: 'x' },
  ].map((instance) => ({ schema: Sample, instance })),
];

describe('json-schema-errors', () => {
  it('reports the error Debian’s python3-jsonschema reports, worded as it words it', () => {
    const python = pythonErrors(CASES);
    const ours = CASES.map(({ schema, instance }) => {
      const e = schemaError(schema, instance);
      return e && { message: e.message, keyword: e.keyword, schemaPath: e.schemaPath, path: e.path, short: shortSchemaMessage(e) };
    });
    for (const [i, c] of CASES.entries()) expect(ours[i], JSON.stringify(c.instance)).toEqual(python[i]);
  });

  it('names several unexpected keys in sorted order (jsonschema 4.10 lists them in the order of a Python set)', () => {
    const e = schemaError(Sample, { name: 'ab', more: 2, extra: 1 });
    expect(e?.message).toBe("Additional properties are not allowed ('extra', 'more' were unexpected)");
  });

  it('prints the whole error as str(ValidationError) does, without the sub-schema', () => {
    const e = schemaError(CleanStepsBody, [{ interface: 'deploy', step: 'x' }, { interface: 'deploy', step: '' }]);
    expect(e && longSchemaMessage(e)).toBe("'' is too short\n\nFailed validating 'minLength' in schema['items']['properties']['step']\n\nOn instance[1]['step']:\n    ''");
  });
});
