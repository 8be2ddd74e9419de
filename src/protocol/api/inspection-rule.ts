/**
 * An inspection rule of Ironic's API (`/v1/inspection_rules`, 1.96; `ironic/api/schemas/v1/
 * inspection_rule.py` `create_request_body`) as a client sends it: `{op, args, loop?}` conditions and
 * actions. Which operators exist, their arguments and templates are checked by
 * `inspection/rules/inspection-rules.ts`.
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';
import type { Json, JsonObject } from '../../shared/json.js';

/** A JSON list or dict. */
const listOrDict = (description: string) =>
  Type.Unsafe<Json[] | JsonObject>(Type.Union([Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())], { description }));
const Args = listOrDict('Arguments: a dict of named arguments, or a list in signature order.');
const Loop = listOrDict('Items to repeat the operation for; each is available as {item}.');

/** `POST /v1/inspection_rules` (1.96), or an entry of the built-in rules file. */
export const InspectionRuleBody = Type.Object(
  {
    uuid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    priority: Type.Optional(Type.Integer({ description: 'Higher runs first; 0-9999 for user rules.' })),
    sensitive: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'Mask the rule in logs and API output.' })),
    phase: Type.Optional(Type.Union([Type.String({ maxLength: 16 }), Type.Null()])),
    conditions: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Object(
            {
              op: Type.String(),
              args: Args,
              multiple: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all'), Type.Literal('first'), Type.Literal('last')])),
              loop: Type.Optional(Loop),
            },
            { additionalProperties: true },
          ),
        ),
        Type.Null(),
      ]),
    ),
    actions: Type.Array(Type.Object({ op: Type.String(), args: Args, loop: Type.Optional(Loop) }, { additionalProperties: true }), {
      minItems: 1,
    }),
  },
  { additionalProperties: false },
);
export type InspectionRuleBody = Static<typeof InspectionRuleBody>;
