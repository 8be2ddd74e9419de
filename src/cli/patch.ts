/**
 * JSON Patch (RFC 6902) documents for `set` and `unset`, built as the `baremetal` CLI builds them:
 * `add` for every value set (on an object member it replaces), `remove` for every value unset.
 */
import type { JsonPatchOp, JsonValue } from '../protocol/client/wire.js';

/** A JSON Pointer (RFC 6901) of path segments, escaping `~` and `/`. */
export function pointer(...segments: string[]): string {
  return segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Accumulates patch operations. */
export class PatchBuilder {
  readonly ops: JsonPatchOp[] = [];

  /** `add /field` when `value` is defined. */
  set(field: string, value: JsonValue | undefined): this {
    if (value !== undefined) this.ops.push({ op: 'add', path: pointer(field), value });
    return this;
  }

  /** `add /dict/key` for each entry. */
  setEntries(dict: string, entries: Record<string, JsonValue> | undefined): this {
    for (const [k, v] of Object.entries(entries ?? {})) this.ops.push({ op: 'add', path: pointer(dict, k), value: v });
    return this;
  }

  /** `remove /field` when `flag` is true. */
  remove(field: string, flag: boolean | undefined): this {
    if (flag) this.ops.push({ op: 'remove', path: pointer(field) });
    return this;
  }

  /** `remove /dict/key` for each key. */
  removeKeys(dict: string, keys: string[] | undefined): this {
    for (const k of keys ?? []) this.ops.push({ op: 'remove', path: pointer(dict, k) });
    return this;
  }
}
