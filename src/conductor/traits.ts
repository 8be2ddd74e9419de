/** Node trait rules (Ironic API): at most 50 per node, each a standard trait or `CUSTOM_[A-Z0-9_]+`, ≤255 chars. */
import { fail } from '../shared/errors.js';

export const MAX_TRAITS = 50;

/** Namespaces of the standard traits of the os-traits library. */
const STANDARD_PREFIXES = ['HW_', 'COMPUTE_', 'STORAGE_', 'MISC_', 'OWNER_'];

/** True when `trait` is a valid trait name. */
export function isValidTrait(trait: unknown): trait is string {
  if (typeof trait !== 'string' || trait.length === 0 || trait.length > 255) return false;
  if (/^CUSTOM_[A-Z0-9_]+$/.test(trait)) return true;
  return STANDARD_PREFIXES.some((p) => trait.startsWith(p)) && /^[A-Z][A-Z0-9_]*$/.test(trait);
}

/** Throws InvalidParameterValue for an invalid trait. */
export function checkTrait(trait: unknown): string {
  if (!isValidTrait(trait)) {
    throw fail(
      'InvalidParameterValue',
      `Invalid trait ${JSON.stringify(trait)}. A valid trait must be no longer than 255 characters. Standard traits are defined in the os_traits library. A custom trait must start with the prefix CUSTOM_ and use the following characters: A-Z, 0-9 and _`,
    );
  }
  return trait;
}

/** Validates a full trait list, dropping duplicates (order kept). */
export function checkTraits(nodeUuid: string, traits: unknown[]): string[] {
  const unique = [...new Set(traits.map(checkTrait))];
  if (unique.length > MAX_TRAITS) {
    throw fail('InvalidParameterValue', `Could not set traits for node ${nodeUuid}: at most ${MAX_TRAITS} traits are allowed, got ${unique.length}.`);
  }
  return unique;
}
