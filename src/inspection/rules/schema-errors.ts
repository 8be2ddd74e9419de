/**
 * Schema errors as one readable line per problem, naming the rule field (`conditions[0].multiple`).
 * TypeBox reports every branch of a union; they are folded into one message ("must be string or null"),
 * or dropped in favour of the branch that had the right type but a bad value.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

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
    const messages = others.map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperties?: string[] }).additionalProperties?.join(', ')})` : '';
      return `${e.message}${extra}`;
    });
    if (others.length === 0 && typeErrors.length > 0) {
      messages.push(`must be ${typeErrors.map((e) => String((e.params as { type?: unknown }).type)).join(' or ')}`);
    }
    for (const m of new Set(messages)) out.push(`${where}: ${m}`);
  }
  return out;
}
