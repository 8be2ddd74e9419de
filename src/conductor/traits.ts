/**
 * Node trait rules on a whole list (Ironic's `MAX_TRAITS_PER_NODE`): at most 50, without duplicates. The
 * API checks the names a request carries (`protocol/api/traits.ts`); the conductor checks those that
 * inspection rules add, and the count, which depends on the node.
 */
import { checkTrait, MAX_TRAITS } from '../protocol/api/traits.js';
import { fail } from '../shared/errors.js';

export { MAX_TRAITS } from '../protocol/api/traits.js';

/** Drops duplicates (order kept) and refuses more than {@link MAX_TRAITS}. */
export function limitTraits(nodeUuid: string, traits: readonly string[]): string[] {
  const unique = [...new Set(traits)];
  if (unique.length > MAX_TRAITS) {
    throw fail('traitsTooMany', { node: nodeUuid, max: MAX_TRAITS, count: unique.length });
  }
  return unique;
}

/** Validates the names of a full trait list that did not come through the API, then {@link limitTraits}. */
export function checkTraits(nodeUuid: string, traits: unknown[]): string[] {
  return limitTraits(nodeUuid, traits.map(checkTrait));
}
