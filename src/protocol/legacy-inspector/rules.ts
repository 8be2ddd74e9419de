/**
 * Request bodies of the legacy ironic-inspector API v1 (`ironic_inspector/main.py`, `rules.py`): an
 * introspection rule. Which operators and actions exist and which parameters each takes are checked by
 * `inspection/rules/legacy-rules.ts`. `POST /v1/continue` takes the inspection payload of
 * `protocol/agent/inventory.ts`; starting an introspection takes no body.
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';

/** `POST /v1/rules`: a legacy rule as sent (and as stored). */
export const LegacyRuleBody = Type.Object(
  {
    uuid: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Rule UUID; generated when absent.' })),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Human-readable description.' })),
    scope: Type.Optional(Type.Union([Type.String(), Type.Null()], {
      description: 'When set, the rule applies only to nodes whose properties.inspection_scope equals it.',
    })),
    conditions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            op: Type.String({ description: 'Condition operator.' }),
            field: Type.String({ description: 'JSON path to the value; prefix data:// (default) or node://.' }),
            multiple: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all'), Type.Literal('first')])),
            invert: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: true },
        ),
      ),
    ),
    actions: Type.Array(Type.Object({ action: Type.String({ description: 'Action to take.' }) }, { additionalProperties: true }), {
      minItems: 1,
    }),
  },
  { additionalProperties: false },
);
export type LegacyRuleBody = Static<typeof LegacyRuleBody>;
