/** Node trait rules (Ironic API, `protocol/api/traits.ts`) applied to a whole list: at most 50, without duplicates. */
import { checkTrait, MAX_TRAITS } from '../protocol/api/traits.js';
import { fail } from '../shared/errors.js';

export { checkTrait, isValidTrait, MAX_TRAITS } from '../protocol/api/traits.js';

/** Validates a full trait list, dropping duplicates (order kept). */
export function checkTraits(nodeUuid: string, traits: unknown[]): string[] {
  const unique = [...new Set(traits.map(checkTrait))];
  if (unique.length > MAX_TRAITS) {
    throw fail('InvalidParameterValue', `Could not set traits for node ${nodeUuid}: at most ${MAX_TRAITS} traits are allowed, got ${unique.length}.`);
  }
  return unique;
}
