/**
 * The mutable copy rules act on: a node, its ports and the plugin data, cloned from the context so the
 * input is never touched, plus the log. At the end it reports what changed as a {@link RulesResult}.
 * Both engines share it, so an action means the same thing in either DSL.
 */
import type { JsonObject, Node, Port } from '../../domain/node.js';
import { updateCapabilities } from './capabilities.js';
import { deepClone, isPlainObject, pyEquals, type PlainObject } from './py-values.js';
import { pythonRepr } from '../../protocol/python-repr.js';
import { hasOwnKey, ownGet, ownGetIn, ownSet, prototypeKeyIn } from '../../shared/own-keys.js';
import type { PortChange, RuleLogLevel, RuleLogLine, RulesContext, RulesFailure, RulesResult } from './types.js';

/** An action could not be applied; the engines turn it into a failure naming the rule. */
export class RuleActionError extends Error {
  override name = 'RuleActionError';
}

/** Fields rules may not write: internal bookkeeping, not part of Ironic's node or port. */
const NODE_READ_ONLY = new Set(['id', 'version', 'created_at', 'updated_at']);
const PORT_READ_ONLY = new Set(['id', 'node_id', 'created_at', 'updated_at']);

/** The copy of a node, its ports and plugin data that a rules run changes. */
export class RulesWorkspace {
  readonly node: Node;
  readonly ports: Port[];
  pluginData: JsonObject;
  readonly log: RuleLogLine[] = [];
  readonly applied: string[] = [];
  resetInterfaces = false;
  private readonly original: RulesContext;

  constructor(ctx: RulesContext) {
    this.original = ctx;
    this.node = deepClone(ctx.node);
    this.ports = ctx.ports.map((p) => deepClone(p));
    this.pluginData = deepClone(ctx.pluginData);
  }

  /** Records a log line for `rule`. */
  say(level: RuleLogLevel, rule: string, message: string): void {
    this.log.push({ level, rule, message });
  }

  /** Sets the node attribute at `parts` (first part: a node field; the rest: keys inside it). */
  setNode(parts: readonly string[], value: unknown): void {
    setIn(this.node as unknown as PlainObject, parts, value, 'node', NODE_READ_ONLY);
  }

  /** Appends `value` to the list at `parts` on the node, creating it; with `unique`, only if absent. */
  extendNode(parts: readonly string[], value: unknown, unique: boolean): void {
    extendIn(this.node as unknown as PlainObject, parts, value, unique, 'node', NODE_READ_ONLY);
  }

  /** Removes the node attribute at `parts` (a top-level field is reset to empty); missing keys are no-ops. */
  deleteNode(parts: readonly string[]): void {
    deleteIn(this.node as unknown as PlainObject, parts, 'node', NODE_READ_ONLY);
  }

  /** The port whose UUID or MAC address (any case) is `id`. */
  port(id: string): Port {
    const want = id.toLowerCase();
    const port = this.ports.find((p) => p.uuid.toLowerCase() === want || p.address.toLowerCase() === want);
    if (!port) throw new RuleActionError(`port ${id} was not found among the node's ports`);
    return port;
  }

  setPort(id: string, parts: readonly string[], value: unknown): void {
    setIn(this.port(id) as unknown as PlainObject, parts, value, `port ${id}`, PORT_READ_ONLY);
  }

  extendPort(id: string, parts: readonly string[], value: unknown, unique: boolean): void {
    extendIn(this.port(id) as unknown as PlainObject, parts, value, unique, `port ${id}`, PORT_READ_ONLY);
  }

  deletePort(id: string, parts: readonly string[]): void {
    deleteIn(this.port(id) as unknown as PlainObject, parts, `port ${id}`, PORT_READ_ONLY);
  }

  /** Sets a value in plugin data, creating intermediate objects. */
  setPluginData(parts: readonly string[], value: unknown): void {
    refusePrototypeKeys(parts, 'plugin data');
    let cur: PlainObject = this.pluginData;
    for (const key of parts.slice(0, -1)) {
      const next = ownGet(cur, key);
      if (next === undefined) ownSet(cur, key, {});
      else if (!isPlainObject(next)) throw new RuleActionError(`plugin data ${parts.join('.')}: "${key}" is not a dict`);
      cur = cur[key] as PlainObject;
    }
    ownSet(cur, parts.at(-1)!, value);
  }

  /** Appends to the list at `parts` in plugin data (created when missing or null). */
  extendPluginData(parts: readonly string[], value: unknown, unique: boolean): void {
    refusePrototypeKeys(parts, 'plugin data');
    const current = ownGetIn(this.pluginData, parts);
    if (current !== undefined && current !== null && !Array.isArray(current)) {
      throw new RuleActionError(`cannot extend plugin data ${parts.join('.')}: it is not a list but ${pythonRepr(current)}`);
    }
    const list = Array.isArray(current) ? [...(current as unknown[])] : [];
    if (!unique || !list.some((v) => pyEquals(v, value))) list.push(value);
    this.setPluginData(parts, list);
  }

  /** Removes a value from plugin data; returns false when the path was not there. */
  unsetPluginData(parts: readonly string[]): boolean {
    const parent = ownGetIn(this.pluginData, parts.slice(0, -1));
    const key = parts.at(-1)!;
    if (!isPlainObject(parent) || !hasOwnKey(parent, key)) return false;
    delete parent[key];
    return true;
  }

  /** Sets (or with `value` undefined removes) a capability in `properties.capabilities`. */
  setCapability(name: string, value: unknown): void {
    const props = this.node.properties as PlainObject;
    try {
      props.capabilities = updateCapabilities(props.capabilities, name, value) as JsonObject | string;
    } catch (err) {
      throw new RuleActionError(err instanceof Error ? err.message : String(err));
    }
  }

  addTrait(name: string): void {
    if (!this.node.traits.includes(name)) this.node.traits = [...this.node.traits, name];
  }

  /** Removes a trait; false when the node did not have it. */
  removeTrait(name: string): boolean {
    if (!this.node.traits.includes(name)) return false;
    this.node.traits = this.node.traits.filter((t) => t !== name);
    return true;
  }

  /** The changes so far, as the engines return them. */
  result(failure: RulesFailure | null): RulesResult {
    const before = this.original.node as unknown as PlainObject;
    const after = this.node as unknown as PlainObject;
    const nodeChanges: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (!pyEqualsStrict(before[key], after[key])) nodeChanges[key] = deepClone(after[key]);
    }
    const portChanges: PortChange[] = [];
    for (const port of this.ports) {
      const orig = this.original.ports.find((p) => p.uuid === port.uuid) as unknown as PlainObject | undefined;
      const changes: Record<string, unknown> = {};
      for (const key of Object.keys(port)) {
        const v = (port as unknown as PlainObject)[key];
        if (!orig || !pyEqualsStrict(orig[key], v)) changes[key] = deepClone(v);
      }
      if (Object.keys(changes).length > 0) portChanges.push({ uuid: port.uuid, address: port.address, changes });
    }
    return {
      node: deepClone(this.node),
      nodeChanges: nodeChanges as RulesResult['nodeChanges'],
      ports: deepClone(this.ports),
      portChanges,
      pluginData: deepClone(this.pluginData),
      pluginDataChanged: !pyEqualsStrict(this.original.pluginData, this.pluginData),
      log: [...this.log],
      applied: [...this.applied],
      resetInterfaces: this.resetInterfaces,
      failure,
    };
  }
}

/** Equality for change detection: like {@link pyEquals} but `true` and `1` differ. */
function pyEqualsStrict(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => pyEqualsStrict(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && pyEqualsStrict(a[k], b[k]));
  }
  return pyEquals(a, b);
}

/** Refuses a path with a key that would reach an object prototype (`__proto__`, `constructor`, `prototype`). */
function refusePrototypeKeys(parts: readonly string[], what: string): void {
  const key = prototypeKeyIn(parts);
  if (key !== undefined) throw new RuleActionError(`${what} "${parts.join('/')}": "${key}" cannot be used as a key`);
}

function checkRoot(record: PlainObject, parts: readonly string[], what: string, readOnly: ReadonlySet<string>): string {
  refusePrototypeKeys(parts, what);
  const root = parts[0];
  if (root === undefined || root === '') throw new RuleActionError(`empty attribute path for ${what}`);
  if (readOnly.has(root)) throw new RuleActionError(`${what} field "${root}" cannot be changed by rules`);
  if (!Object.hasOwn(record, root)) throw new RuleActionError(`${what} has no field "${root}"`);
  return root;
}

/** Walks to the dict that holds the last part, creating missing dicts (Python's `setdefault`). */
function parentFor(record: PlainObject, parts: readonly string[], what: string, readOnly: ReadonlySet<string>): PlainObject {
  const root = checkRoot(record, parts, what, readOnly);
  if (record[root] === null) record[root] = {};
  const top = record[root];
  if (!isPlainObject(top)) throw new RuleActionError(`${what} field "${root}" is not a dict, so "${parts.join('/')}" cannot be set`);
  let cur: PlainObject = top;
  for (const key of parts.slice(1, -1)) {
    const found = ownGet(cur, key);
    if (found === undefined || found === null) ownSet(cur, key, {});
    const next: unknown = cur[key];
    if (!isPlainObject(next)) throw new RuleActionError(`${what} "${parts.join('/')}": "${key}" is not a dict`);
    cur = next;
  }
  return cur;
}

function setIn(record: PlainObject, parts: readonly string[], value: unknown, what: string, readOnly: ReadonlySet<string>): void {
  if (parts.length === 1) {
    record[checkRoot(record, parts, what, readOnly)] = value;
    return;
  }
  ownSet(parentFor(record, parts, what, readOnly), parts.at(-1)!, value);
}

function extendIn(record: PlainObject, parts: readonly string[], value: unknown, unique: boolean, what: string, readOnly: ReadonlySet<string>): void {
  const holder = parts.length === 1 ? record : parentFor(record, parts, what, readOnly);
  const key = parts.length === 1 ? checkRoot(record, parts, what, readOnly) : parts.at(-1)!;
  const current = ownGet(holder, key) ?? [];
  if (!Array.isArray(current)) {
    throw new RuleActionError(`cannot extend ${what} "${parts.join('/')}" with ${pythonRepr(value)}: it is not a list but ${pythonRepr(current)}`);
  }
  ownSet(holder, key, !unique || !current.some((v) => pyEquals(v, value)) ? [...current, value] : current);
}

function deleteIn(record: PlainObject, parts: readonly string[], what: string, readOnly: ReadonlySet<string>): void {
  const root = checkRoot(record, parts, what, readOnly);
  if (parts.length === 1) {
    const cur = record[root];
    record[root] = isPlainObject(cur) ? {} : Array.isArray(cur) ? [] : null;
    return;
  }
  const parent = ownGetIn(record, parts.slice(0, -1));
  if (isPlainObject(parent) && hasOwnKey(parent, parts.at(-1)!)) delete parent[parts.at(-1)!];
}
