/**
 * `/v1/inspection_rules` (API 1.96): CRUD of Ironic-format inspection rules, which every in-band
 * inspection runs after its hooks (by priority, together with the built-in rules of
 * `inspector.built_in_rules`, which are not stored and not listed). As in Ironic the API writes rules to
 * the store itself; a sensitive rule's conditions and actions are never shown, and the flag cannot be
 * unset. Below 1.96 the URL answers 404 to GET and 405 to the other methods.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InspectionRuleRecord } from '../../domain/rules.js';
import type { InspectionRuleChanges } from '../../db/store.js';
import { checkInspectionRuleBody, type InspectionRuleInput } from '../../inspection/rules/index.js';
import { fail } from '../../shared/errors.js';
import type { ApiDeps } from '../context.js';
import { baseUrl, buildUrl, selfLinks } from '../links.js';
import { applyPatch, parsePatch } from '../patch.js';
import { checkFieldsExist, nextLink, one, parseLimit, parseSortDir, returnFields, type Query } from '../query.js';
import { requireUuid } from '../resolve.js';
import { requireObject } from '../validate.js';

/** The version that introduced inspection rules. */
export const INSPECTION_RULES_MINOR = 96;

type RuleParams = { Params: { rule: string } };

const FIELDS = ['uuid', 'description', 'priority', 'sensitive', 'phase', 'conditions', 'actions', 'created_at', 'updated_at'];
const DEFAULT_FIELDS = ['uuid', 'priority', 'phase', 'description'];
const PATCH_ALLOWED = ['description', 'priority', 'sensitive', 'phase', 'conditions', 'actions'];
const UNSORTABLE = new Set(['conditions', 'actions']);

/** Ironic's representation: actions always carry `loop`; conditions carry `loop`/`multiple` only when looping. */
function ruleView(r: InspectionRuleRecord, base: string): Record<string, unknown> {
  return {
    uuid: r.uuid,
    description: r.description,
    priority: r.priority,
    sensitive: r.sensitive,
    phase: r.phase,
    conditions: r.sensitive ? null : r.conditions.map((c) => {
      const loop = c.loop;
      const looping = Array.isArray(loop) ? loop.length > 0 : loop !== undefined && loop !== null && Object.keys(loop).length > 0;
      return looping ? { op: c.op, args: c.args, loop, multiple: c.multiple ?? 'any' } : { op: c.op, args: c.args };
    }),
    actions: r.sensitive ? null : r.actions.map((a) => ({ op: a.op, args: a.args, loop: a.loop ?? [] })),
    created_at: r.created_at,
    updated_at: r.updated_at,
    links: selfLinks(base, 'inspection_rules', r.uuid),
  };
}

function pickFields(view: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (fields === undefined) return view;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = view[f];
  out.links = view.links;
  return out;
}

function ruleUuid(ident: string): string {
  return requireUuid('inspection_rule_uuid', ident);
}

/** The stored form of a validated rule document. */
function storedValues(input: InspectionRuleInput): Required<InspectionRuleChanges> {
  return {
    description: input.description ?? null,
    priority: input.priority ?? 0,
    sensitive: input.sensitive ?? false,
    phase: input.phase ?? 'main',
    conditions: input.conditions ?? [],
    actions: input.actions,
  };
}

/** Registers the inspection rules routes. */
export function inspectionRuleRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const gate = (req: FastifyRequest) => {
    if (req.apiMinor >= INSPECTION_RULES_MINOR) return;
    // As Ironic: 404 to a GET, 405 to the other methods, with one message.
    throw fail('inspectionRulesNeedVersion', {}, req.method === 'GET' ? {} : { status: 405 });
  };
  const base = (req: FastifyRequest) => baseUrl(req, deps.config.public_url);

  app.get('/v1/inspection_rules', async (req) => {
    gate(req);
    const q = req.query as Query;
    const fields = returnFields(q, req.apiMinor, DEFAULT_FIELDS, INSPECTION_RULES_MINOR);
    checkFieldsExist(fields, new Set([...FIELDS, 'links']));
    const sortKey = one(q, 'sort_key');
    if (sortKey !== undefined && UNSORTABLE.has(sortKey)) throw fail('invalidSortKey', { key: sortKey });
    const limit = parseLimit(q, deps.config.max_limit);
    const phase = one(q, 'phase');
    const rules = await deps.store.inspectionRules.list(phase === undefined ? {} : { phase }, { limit, marker: one(q, 'marker'), sortKey, sortDir: parseSortDir(q) });
    const b = base(req);
    const out: { inspection_rules: unknown[]; next?: string } = { inspection_rules: rules.map((r) => pickFields(ruleView(r, b), fields)) };
    const next = nextLink(b, 'inspection_rules', rules.length, limit, rules[rules.length - 1]?.uuid, q);
    if (next) out.next = next;
    return out;
  });

  app.get<RuleParams>('/v1/inspection_rules/:rule', async (req) => {
    gate(req);
    const q = req.query as Query;
    const raw = one(q, 'fields');
    const fields = raw === undefined ? undefined : raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    checkFieldsExist(fields, new Set([...FIELDS, 'links']));
    return pickFields(ruleView(await deps.store.inspectionRules.get(ruleUuid(req.params.rule)), base(req)), fields);
  });

  app.post('/v1/inspection_rules', async (req, reply) => {
    gate(req);
    const input = checkInspectionRuleBody(requireObject('inspection rule', req.body));
    const created = await deps.store.inspectionRules.create({ ...storedValues(input), uuid: input.uuid ?? null });
    const b = base(req);
    reply.code(201).header('location', buildUrl(b, 'inspection_rules', created.uuid));
    return ruleView(created, b);
  });

  app.patch<RuleParams>('/v1/inspection_rules/:rule', async (req) => {
    gate(req);
    const ops = parsePatch(req.body, { allowed: PATCH_ALLOWED, mandatory: ['/actions'] });
    const rule = await deps.store.inspectionRules.get(ruleUuid(req.params.rule));
    if (rule.sensitive && ops.some((op) => op.path === '/sensitive' && (op.op === 'remove' || !op.value))) {
      throw fail('sensitiveRuleUnset');
    }
    const doc: Record<string, unknown> = {
      uuid: rule.uuid, description: rule.description, priority: rule.priority, sensitive: rule.sensitive, phase: rule.phase,
      conditions: rule.conditions, actions: rule.actions,
    };
    const patched = checkInspectionRuleBody(applyPatch(structuredClone(doc), ops));
    const updated = await deps.store.inspectionRules.update(rule.uuid, storedValues(patched));
    return ruleView(updated, base(req));
  });

  app.delete<RuleParams>('/v1/inspection_rules/:rule', async (req, reply: FastifyReply) => {
    gate(req);
    await deps.store.inspectionRules.delete(ruleUuid(req.params.rule));
    return reply.code(204).send();
  });

  app.delete('/v1/inspection_rules', async (req, reply) => {
    gate(req);
    await deps.store.inspectionRules.deleteAll();
    return reply.code(204).send();
  });
}
