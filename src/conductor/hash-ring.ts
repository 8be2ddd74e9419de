/**
 * Consistent hash ring mapping nodes to conductors, as Ironic's (tooz) ring: each host owns
 * 2^partitionExponent points on a ring of md5 hashes; a node belongs to the first point at or after the
 * hash of its UUID. Adding or removing one conductor moves only the nodes of its points.
 */
import { createHash } from 'node:crypto';

function point(key: string): bigint {
  return createHash('md5').update(key).digest().readBigUInt64BE(0);
}

export class HashRing {
  private readonly points: Array<{ at: bigint; host: string }>;
  /** The host when there is exactly one (it owns every key: no hashing needed). */
  private readonly only: string | null;

  constructor(hosts: Iterable<string>, partitionExponent = 5) {
    const replicas = 2 ** partitionExponent;
    this.points = [];
    const distinct = new Set(hosts);
    this.only = distinct.size === 1 ? (distinct.values().next().value as string) : null;
    for (const host of distinct) {
      for (let i = 0; i < replicas; i++) this.points.push({ at: point(`${host}-${i}`), host });
    }
    this.points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.host.localeCompare(b.host)));
  }

  get size(): number {
    return new Set(this.points.map((p) => p.host)).size;
  }

  /** The host owning `key`, or null for an empty ring. */
  hostFor(key: string): string | null {
    if (this.points.length === 0) return null;
    // NOTE: with one conductor (the common single-process case) every key maps to it; skipping the
    // md5 matters when a list of 1000 nodes asks for each node's conductor.
    if (this.only !== null) return this.only;
    const h = point(key);
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.points[mid] as { at: bigint }).at < h) lo = mid + 1;
      else hi = mid;
    }
    return (this.points[lo % this.points.length] as { host: string }).host;
  }
}
