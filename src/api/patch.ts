/**
 * JSON Patch (RFC 6902) updates with Ironic's rules (`ironic/api/args.py` `patch`,
 * `api/controllers/v1/utils.py` `apply_jsonpatch`, `patch_validate_allowed_fields`): only add, replace
 * and remove; internal attributes are read-only; mandatory ones cannot be removed; only the writable
 * fields may be touched; nothing new may be added at the root. The patch is applied to the resource's
 * API representation one operation at a time (for precise errors); the caller then sends the fields
 * that changed to the conductor.
 */
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { PATCH_OPS, PATCH_PATH, type PatchOperation } from '../protocol/api/bodies.js';
import { pythonRepr } from '../protocol/python-repr.js';
import { fail } from '../shared/errors.js';
import { hasOwnKey, isRecord, ownGetIn, prototypeKeyIn } from '../shared/own-keys.js';

/** A checked operation (`protocol/api/bodies.ts` `PatchBody`). */
export type PatchOp = PatchOperation;

export interface PatchRules {
  /** Top-level fields a patch may change. */
  allowed: readonly string[];
  /** Fields whose removal is refused (e.g. `/driver`). */
  mandatory: readonly string[];
}

const INTERNAL = new Set(['/created_at', '/id', '/links', '/updated_at', '/uuid']);
const PATH_RE = new RegExp(PATCH_PATH);
const isPatchOp = (op: unknown): op is PatchOp['op'] => (PATCH_OPS as readonly unknown[]).includes(op);

/** Validates the shape of a patch document and Ironic's attribute rules; returns the operations. */
export function parsePatch(body: unknown, rules: PatchRules): PatchOp[] {
  if (!Array.isArray(body)) {
    throw fail('patchNotArray', { actual: body === null ? 'null' : typeof body });
  }
  const ops: PatchOp[] = [];
  body.forEach((raw: unknown, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw fail('patchOpNotObject', { index: i });
    const p = raw as Record<string, unknown>;
    if (!isPatchOp(p.op)) {
      throw fail('patchOpUnknown', { index: i, op: JSON.stringify(p.op), ops: PATCH_OPS.join(', ') });
    }
    if (typeof p.path !== 'string' || !PATH_RE.test(p.path)) {
      throw fail('patchPathInvalid', { index: i, path: JSON.stringify(p.path) });
    }
    if (p.op !== 'remove' && !('value' in p)) {
      throw fail('patchValueMissing', { index: i, op: p.op, path: p.path });
    }
    const protoKey = prototypeKeyIn(pointerKeys(p.path));
    if (protoKey !== undefined) throw fail('patchPathPrototypeKey', { index: i, path: p.path, key: protoKey });
    if (INTERNAL.has(p.path)) throw fail('patchInternalAttribute', { path: p.path });
    if (p.op === 'remove' && rules.mandatory.includes(p.path)) throw fail('patchMandatoryAttribute', { path: p.path });
    const top = p.path.split('/')[1] as string;
    if (!rules.allowed.includes(top)) {
      throw fail('patchPathNotAllowed', { path: p.path, allowed: rules.allowed.join(', ') });
    }
    ops.push(p.op === 'remove' ? { op: 'remove', path: p.path } : { op: p.op, path: p.path, value: p.value });
  });
  return ops;
}

/** Values the patch sets at exactly `path` (Ironic's `get_patch_values`). */
export function patchValues(ops: readonly PatchOp[], path: string): unknown[] {
  return ops.filter((p) => p.path === path && p.op !== 'remove').map((p) => p.value);
}

/** True when the patch touches `path` or anything under it. */
export function touches(ops: readonly PatchOp[], path: string): boolean {
  return ops.some((p) => p.path === path || p.path.startsWith(`${path}/`));
}

/** Applies `ops` to `doc` (a private copy), one at a time, naming the operation that failed. */
export function applyPatch(doc: Record<string, unknown>, ops: readonly PatchOp[]): Record<string, unknown> {
  for (const p of ops) {
    if (p.op === 'add' && p.path.split('/').length === 2 && !(p.path.slice(1) in doc)) {
      throw fail('patchAddAtRoot', { path: p.path });
    }
  }
  let current = doc;
  for (const p of ops) {
    try {
      if (p.op !== 'add') mustExist(current, p.path);
      current = jsonpatch.applyOperation(current, p as Operation, true, true, true).newDocument;
    } catch (err) {
      throw fail('patchNotApplicable', { patch: pythonRepr(p), reason: patchFailure(p, err) });
    }
  }
  return current;
}

/** The unescaped keys of a JSON pointer (`/a~1b/c` is `a/b`, `c`). */
function pointerKeys(path: string): string[] {
  return path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Refuses to replace or remove a key a dict does not own: fast-json-patch would see an inherited name
 * (`toString`, `hasOwnProperty`) as present, where it is an ordinary missing key.
 */
function mustExist(doc: Record<string, unknown>, path: string): void {
  const keys = pointerKeys(path);
  const parent = ownGetIn(doc, keys.slice(0, -1));
  if (isRecord(parent) && !hasOwnKey(parent, keys.at(-1)!)) {
    throw Object.assign(new Error('the path does not exist'), { name: 'OPERATION_PATH_UNRESOLVABLE' });
  }
}

/** The reason Ironic (python-jsonpatch) gives for an operation that cannot apply. */
function patchFailure(p: PatchOp, err: unknown): string {
  const last = p.path.split('/').pop() ?? '';
  const name = (err as { name?: string } | null)?.name;
  if (name === 'OPERATION_PATH_UNRESOLVABLE' && (p.op === 'remove' || p.op === 'replace')) {
    return `can't ${p.op} a non-existent object '${last}'`;
  }
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return message ?? 'the path does not exist';
}

/**
 * The top-level `fields` whose value differs between `before` and `after`; a removed field maps to
 * `null` (the caller turns that into the field's empty value).
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const a = f in after ? after[f] : null;
    if (JSON.stringify(before[f] ?? null) !== JSON.stringify(a ?? null)) out[f] = a ?? null;
  }
  return out;
}
