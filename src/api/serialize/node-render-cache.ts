/**
 * Rendered JSON text of nodes, kept between requests for detailed node lists. Clients such as Nova's
 * ironic driver and metal3 poll `GET /v1/nodes/detail` all the time while most nodes stay the same; a
 * node whose row (id and version), conductor and chassis are what they were when it was rendered in
 * the same scope (microversion, field plan, base URL) is answered with the text rendered then, without
 * reading or rendering it again. Entries are keyed by scope and node UUID, so clients polling at
 * different microversions each keep their own texts.
 *
 * A text is kept only for a node seen unchanged since the previous list that rendered it: the first
 * sighting (or a changed node) leaves a mark, the next rendering at the same row version keeps its
 * text. A node that changes between every two lists is never kept, so its texts die young instead of
 * being promoted to V8's old generation only to become garbage there (on a server listing 10,000 nodes
 * once, keeping every text it rendered raised the resident memory by over 30 MiB). Marks are small
 * integers (a hash of scope, row id and version) in one set: a collision only keeps a text one list
 * early, never answers a wrong one.
 *
 * Least recently used texts go first once they add up to more than the bound (in characters; a text of
 * ASCII characters takes about one byte each). Rendered texts are flat strings made for one node each,
 * never slices of a larger string, so an entry holds only its own text.
 */
import type { NodePlan } from './node.js';

/** What, besides its scope, a node's rendering depends on; a cached text is used only when all match. */
export interface NodeStamp {
  /** The row id: a node deleted and enrolled again under its UUID is a new row (ids are never reused). */
  id: number;
  /** The node's row version (changed by every write of the node). */
  version: number;
  /** The conductor managing the node (the hash ring can move a node without writing it). */
  conductor: string | null;
  chassisUuid: string | null;
}

interface Entry extends NodeStamp {
  text: string;
  /** Characters charged to the bound for this entry (text and key). */
  size: number;
}

/** Marks remembered at most; beyond that they are forgotten all at once (texts are kept a list later). */
export const MAX_MARKS = 50_000;

/** The mark of a node seen at `stamp` in `scope`: a small integer (a V8 Smi, stored unboxed). */
function markOf(scope: number, stamp: NodeStamp): number {
  return (Math.imul(stamp.id, 0x9e3779b1) ^ Math.imul(stamp.version + 1, 0x85ebca77) ^ Math.imul(scope, 0xc2b2ae3d)) >>> 2;
}

/** Scopes remembered at most; beyond that every entry is dropped (base URLs come from Host headers). */
const MAX_SCOPES = 64;

/** An LRU of rendered node texts bounded by their total length. */
export class NodeRenderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly scopes = new Map<string, number>();
  private readonly marks = new Set<number>();
  private nextScope = 1;
  private used = 0;

  /** @param maxChars bound on the characters held; 0 keeps nothing. */
  constructor(readonly maxChars: number) {}

  /** Whether the cache keeps anything at all. */
  get enabled(): boolean {
    return this.maxChars > 0;
  }

  /** Characters held (texts and keys). */
  get chars(): number {
    return this.used;
  }

  /** Texts held. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The id of the rendering scope: texts rendered for one scope are never used for another. A scope
   * id is never reused, so entries of a forgotten scope can no longer match.
   */
  scope(minor: number, plan: NodePlan, base: string): number {
    const key = `${minor}\n${plan.withLinks ? 1 : 0}\n${plan.fields.join(',')}\n${base}`;
    let id = this.scopes.get(key);
    if (id === undefined) {
      if (this.scopes.size >= MAX_SCOPES) this.clear();
      id = this.nextScope++;
      this.scopes.set(key, id);
    }
    return id;
  }

  /** The text kept for node `uuid` in `scope` when its stamp is still `stamp`; marks it recently used. */
  get(scope: number, uuid: string, stamp: NodeStamp): string | undefined {
    if (this.entries.size === 0) return undefined;
    const key = `${scope} ${uuid}`;
    const e = this.entries.get(key);
    if (e === undefined || !same(e, stamp)) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.text;
  }

  /** True when a node was seen in `scope` at the row of `stamp` before (marked): its next text will be kept. */
  seen(scope: number, stamp: NodeStamp): boolean {
    return this.enabled && this.marks.has(markOf(scope, stamp));
  }

  /** Remembers that node `uuid` was seen in `scope` at `stamp`, dropping any text kept for it. */
  mark(scope: number, uuid: string, stamp: NodeStamp): void {
    if (!this.enabled) return;
    if (this.entries.size > 0) {
      const key = `${scope} ${uuid}`;
      const old = this.entries.get(key);
      if (old !== undefined) this.drop(key, old);
    }
    if (this.marks.size >= MAX_MARKS) this.marks.clear();
    this.marks.add(markOf(scope, stamp));
  }

  /**
   * Offers `text`, node `uuid` just rendered in `scope` at `stamp`: kept when the node was seen at
   * the same row before, otherwise only marked. Evicts the least recently used texts.
   */
  offer(scope: number, uuid: string, stamp: NodeStamp, text: string): void {
    if (!this.seen(scope, stamp)) {
      this.mark(scope, uuid, stamp);
      return;
    }
    const key = `${scope} ${uuid}`;
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key, old);
    const size = text.length + key.length;
    if (size > this.maxChars) return;
    this.entries.set(key, { id: stamp.id, version: stamp.version, conductor: stamp.conductor, chassisUuid: stamp.chassisUuid, text, size });
    this.used += size;
    while (this.used > this.maxChars) {
      const first = this.entries.entries().next().value as [string, Entry];
      this.drop(first[0], first[1]);
    }
  }

  /** Drops every text, mark and scope. */
  clear(): void {
    this.entries.clear();
    this.marks.clear();
    this.scopes.clear();
    this.used = 0;
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.used -= e.size;
  }
}

function same(e: NodeStamp, stamp: NodeStamp): boolean {
  return e.version === stamp.version && e.id === stamp.id && e.conductor === stamp.conductor && e.chassisUuid === stamp.chassisUuid;
}
