/**
 * `/v1/rules` of the legacy ironic-inspector API (`ironic_inspector/main.py` `api_rules`, `rules.py`
 * `as_dict`): create, list, show and delete introspection rules in the inspector's own format (the body:
 * `protocol/legacy-inspector/rules.ts` `LegacyRuleBody`). Stored
 * rules run at every in-band inspection, after the Ironic-format rules, in creation order.
 */
import type { FastifyInstance } from 'fastify';
import type { LegacyRuleRecord } from '../../domain/rules.js';
import type { JsonObject } from '../../domain/node.js';
import { validateLegacyRule } from '../../inspection/rules/index.js';
import { fail } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import type { ApiDeps } from '../context.js';
import { requireObject } from '../validate.js';

/** The first inspector API version that answers a created rule with 201 (before: 200). */
const CREATED_201_MINOR = 6;

/** The inspector's representation: conditions and actions flattened back to their wire form. */
function ruleRepr(r: LegacyRuleRecord, short: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { uuid: r.uuid, description: r.description, scope: r.scope };
  if (!short) {
    out.conditions = r.conditions;
    out.actions = r.actions;
  }
  out.links = [{ href: `/v1/rules/${r.uuid}`, rel: 'self' }];
  return out;
}

function checkUuid(value: string): string {
  if (!isUuid(value)) throw fail('inspectorUuidInvalid');
  return value;
}

export function legacyRuleRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/v1/rules', async () => ({ rules: (await deps.store.legacyRules.all()).map((r) => ruleRepr(r, true)) }));

  app.post('/v1/rules', async (req, reply) => {
    const body = requireObject('rule', req.body);
    if ('uuid' in body && typeof body.uuid === 'string' && body.uuid !== '') checkUuid(body.uuid);
    const rule = validateLegacyRule(body);
    // Stored as sent, with each condition's defaults spelled out (as the inspector shows them).
    const conditions = rule.conditions.map((c) => ({ op: c.op, field: c.field, multiple: c.multiple, invert: c.invert, ...c.params }) as JsonObject);
    const actions = rule.actions.map((a) => ({ action: a.action, ...a.params }) as JsonObject);
    const created = await deps.store.legacyRules.create({ uuid: rule.uuid, description: rule.description, scope: rule.scope, conditions, actions });
    reply.code(req.inspectorMinor >= CREATED_201_MINOR ? 201 : 200);
    return ruleRepr(created, false);
  });

  app.delete('/v1/rules', async (_req, reply) => {
    await deps.store.legacyRules.deleteAll();
    return reply.code(204).send();
  });

  app.get<{ Params: { uuid: string } }>('/v1/rules/:uuid', async (req) => ruleRepr(await deps.store.legacyRules.get(checkUuid(req.params.uuid)), false));

  app.delete<{ Params: { uuid: string } }>('/v1/rules/:uuid', async (req, reply) => {
    await deps.store.legacyRules.delete(checkUuid(req.params.uuid));
    return reply.code(204).send();
  });
}
