/**
 * Schema errors as one readable line per problem, naming the rule field (`conditions[0].multiple`).
 * TypeBox reports every branch of a union; they are folded into one message ("must be string or null"),
 * or dropped in favour of the branch that had the right type but a bad value.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { errorMessage, type FailArgs, type MessageId } from '../../shared/errors.js';

/**
 * The text of problem message `id` with its values (messages/inspection.ts): a rule's problems are
 * joined into the one error that refuses it (`inspectionRuleInvalid`, `builtinRuleInvalid`).
 */
export function problem<M extends MessageId>(id: M, ...args: FailArgs<M>): string {
  return errorMessage(id, ...args).message;
}

/** The problems of `value` against `schema`, one message per field. */
export function schemaProblems(schema: TSchema, value: unknown): string[] {
  const errors = [...Value.Errors(schema, value)].filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'boolean');
  const byPath = new Map<string, typeof errors>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const out: string[] = [];
  for (const [path, list] of byPath) {
    const where = path === '' ? 'rule' : path.slice(1).replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
    const inUnion = (e: (typeof list)[number]): boolean => /\/anyOf\/\d+$/.test(e.schemaPath);
    const typeErrors = list.filter((e) => e.keyword === 'type' && inUnion(e));
    const others = list.filter((e) => !(e.keyword === 'type' && inUnion(e)));
    const messages = others.map((e) => e.keyword === 'additionalProperties'
      ? problem('ruleFieldUnknownProperties', { field: where, problem: e.message, properties: String((e.params as { additionalProperties?: string[] }).additionalProperties?.join(', ')) })
      : problem('ruleFieldProblem', { field: where, problem: e.message }));
    if (others.length === 0 && typeErrors.length > 0) {
      messages.push(problem('ruleFieldWrongType', { field: where, types: typeErrors.map((e) => String((e.params as { type?: unknown }).type)).join(' or ') }));
    }
    out.push(...new Set(messages));
  }
  return out;
}
