/**
 * UEFI HTTP boot exists only in UEFI firmware, so the `http` interface refuses a node whose boot mode is
 * stated as legacy BIOS anywhere Ironic reads it from (`boot_mode_utils.get_boot_mode`): the requested
 * mode in `instance_info.deploy_boot_mode`, the `boot_mode` capability of `instance_info` or
 * `properties`, and the mode the BMC reports in `boot_mode`. Ingot does not switch a node's boot mode
 * before a network boot, so a BIOS value in any of them means the machine would not HTTP-boot.
 */
import type { Json, Node } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';

/** One place a boot mode is stated. */
export interface StatedBootMode {
  /** e.g. `properties.capabilities`. */
  field: string;
  mode: string;
}

/** Every boot mode stated on the node, in the order Ironic gives them precedence. */
export function statedBootModes(node: Readonly<Node>): StatedBootMode[] {
  const out: StatedBootMode[] = [];
  const add = (field: string, mode: unknown) => {
    if (typeof mode === 'string' && mode.trim() !== '') out.push({ field, mode: mode.trim().toLowerCase() });
  };
  add('instance_info.deploy_boot_mode', node.instance_info.deploy_boot_mode);
  add('instance_info.capabilities', capability(node.instance_info.capabilities, 'boot_mode'));
  add('properties.capabilities', capability(node.properties.capabilities, 'boot_mode'));
  add('boot_mode', node.boot_mode);
  return out;
}

/** InvalidParameterValue when a stated boot mode is legacy BIOS. */
export function requireUefi(node: Readonly<Node>): void {
  const legacy = statedBootModes(node).find((s) => s.mode === 'bios' || s.mode === 'legacy');
  if (!legacy) return;
  throw fail('httpBootNeedsUefi', { node: node.uuid, field: legacy.field, mode: legacy.mode });
}

/**
 * A capability from `capabilities` in any form Ironic stores: an object, its JSON text, or the
 * `key:value,key:value` string. Unreadable text yields undefined (other validation reports it).
 */
function capability(caps: Json | undefined, key: string): Json | undefined {
  if (caps && typeof caps === 'object' && !Array.isArray(caps)) return caps[key];
  if (typeof caps !== 'string') return undefined;
  const text = caps.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Json;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed[key] : undefined;
    } catch {
      return undefined;
    }
  }
  for (const item of text.split(',')) {
    const at = item.indexOf(':');
    if (at > 0 && item.slice(0, at).trim() === key) return item.slice(at + 1).trim();
  }
  return undefined;
}
