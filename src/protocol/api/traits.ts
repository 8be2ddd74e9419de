/**
 * Node traits as Ironic's API takes them (`/v1/nodes/{node}/traits`, 1.37; `api/controllers/v1/utils.py`
 * `STANDARD_TRAITS`, `CUSTOM_TRAIT_PATTERN`; `db/sqlalchemy/api.py` `MAX_TRAITS_PER_NODE`): a standard
 * trait of the os-traits library or `CUSTOM_[A-Z0-9_]+`, at most 255 characters, at most 50 per node.
 * The API checks the names a request carries; the conductor those that inspection rules add.
 */
import { fail } from '../../shared/errors.js';

/** Most traits a node may have. */
export const MAX_TRAITS = 50;

/** Namespaces of the standard traits of the os-traits library. */
const STANDARD_PREFIXES = ['HW_', 'COMPUTE_', 'STORAGE_', 'MISC_', 'OWNER_'];

/** True when `trait` is a valid trait name. */
export function isValidTrait(trait: unknown): trait is string {
  if (typeof trait !== 'string' || trait.length === 0 || trait.length > 255) return false;
  if (/^CUSTOM_[A-Z0-9_]+$/.test(trait)) return true;
  return STANDARD_PREFIXES.some((p) => trait.startsWith(p)) && /^[A-Z][A-Z0-9_]*$/.test(trait);
}

/** Throws InvalidParameterValue for an invalid trait name; returns the name. */
export function checkTrait(trait: unknown): string {
  if (!isValidTrait(trait)) {
    throw fail('traitInvalid', { trait: String(JSON.stringify(trait)) });
  }
  return trait;
}
