import { describe, expect, it } from 'vitest';
import { planNode } from './node.js';
import { MAX_MARKS, NodeRenderCache, type NodeStamp } from './node-render-cache.js';

const stamp = (over: Partial<NodeStamp> = {}): NodeStamp => ({ id: 1, version: 0, conductor: 'c1', chassisUuid: null, ...over });

/** Offers `text` twice at the same stamp: the second offer keeps it. */
function keep(c: NodeRenderCache, scope: number, uuid: string, s: NodeStamp, text: string): void {
  c.offer(scope, uuid, s, text);
  c.offer(scope, uuid, s, text);
}

describe('NodeRenderCache', () => {
  it('keeps a text once the node was seen unchanged, and answers it only while every part of the stamp matches', () => {
    const c = new NodeRenderCache(1000);
    const s = c.scope(87, planNode(87, undefined), 'http://h');
    c.offer(s, 'u1', stamp(), 'text-1');
    // First sighting: marked only.
    expect(c.get(s, 'u1', stamp())).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.chars).toBe(0);
    c.offer(s, 'u1', stamp(), 'text-1');
    expect(c.get(s, 'u1', stamp())).toBe('text-1');
    expect(c.chars).toBe('text-1'.length + '1 u1'.length);
    expect(c.get(s, 'u2', stamp())).toBeUndefined();
    for (const changed of [{ version: 1 }, { id: 2 }, { conductor: 'c2' }, { conductor: null }, { chassisUuid: 'ch' }]) {
      keep(c, s, 'u1', stamp(), 'text-1');
      expect(c.get(s, 'u1', stamp(changed)), JSON.stringify(changed)).toBeUndefined();
      c.clear();
    }
    // A changed row's new text is not kept at once: the node is marked at its new version, its old text dropped.
    const s2 = c.scope(87, planNode(87, undefined), 'http://h');
    keep(c, s2, 'u1', stamp(), 'text-1');
    c.offer(s2, 'u1', stamp({ version: 1 }), 'text-2');
    expect(c.size).toBe(0);
    expect(c.get(s2, 'u1', stamp({ version: 1 }))).toBeUndefined();
    c.offer(s2, 'u1', stamp({ version: 1 }), 'text-2');
    expect(c.get(s2, 'u1', stamp({ version: 1 }))).toBe('text-2');
    // A node that changes between every two renderings is never kept.
    for (let v = 0; v < 5; v++) c.offer(s2, 'u3', stamp({ id: 3, version: v }), 'x');
    expect(c.get(s2, 'u3', stamp({ id: 3, version: 4 }))).toBeUndefined();
    expect(c.size).toBe(1);
  });

  it('tells whether a node was seen at its row before, and marks nodes without keeping their text', () => {
    const c = new NodeRenderCache(1000);
    const s = c.scope(87, planNode(87, undefined), 'http://h');
    const other = c.scope(86, planNode(86, undefined), 'http://h');
    expect(c.seen(s, stamp())).toBe(false);
    c.mark(s, 'u1', stamp());
    expect(c.seen(s, stamp())).toBe(true);
    expect(c.seen(s, stamp({ version: 1 }))).toBe(false);
    expect(c.seen(s, stamp({ id: 2 }))).toBe(false);
    expect(c.seen(other, stamp())).toBe(false);
    expect(c.get(s, 'u1', stamp())).toBeUndefined();
    c.offer(s, 'u1', stamp(), 'kept');
    expect(c.get(s, 'u1', stamp())).toBe('kept');
    // Marking drops the kept text.
    c.mark(s, 'u1', stamp({ version: 1 }));
    expect(c.get(s, 'u1', stamp())).toBeUndefined();
    expect(c.seen(s, stamp({ version: 1 }))).toBe(true);
    expect(c.size).toBe(0);
    // Marks are bounded: past the limit they are forgotten.
    for (let id = 10; id < 10 + MAX_MARKS; id++) c.mark(s, `n${id}`, stamp({ id }));
    expect(c.seen(s, stamp({ version: 1 }))).toBe(false);
  });

  it('gives each microversion, field plan and base URL its own scope, and keeps texts apart by scope', () => {
    const c = new NodeRenderCache(10_000);
    const full = planNode(87, undefined);
    const a = c.scope(87, full, 'http://a');
    expect(c.scope(87, planNode(87, undefined), 'http://a')).toBe(a);
    const others = [
      c.scope(86, planNode(86, undefined), 'http://a'),
      c.scope(87, full, 'http://b'),
      c.scope(87, { fields: full.fields, withLinks: false }, 'http://a'),
      c.scope(87, { fields: full.fields.slice(1), withLinks: true }, 'http://a'),
    ];
    expect(new Set([a, ...others]).size).toBe(5);
    keep(c, a, 'u1', stamp(), 'in a');
    for (const o of others) expect(c.get(o, 'u1', stamp())).toBeUndefined();
    keep(c, others[0]!, 'u1', stamp(), 'in other');
    expect(c.get(a, 'u1', stamp())).toBe('in a');
    expect(c.get(others[0]!, 'u1', stamp())).toBe('in other');
  });

  it('evicts the least recently used entries beyond its bound in characters', () => {
    const text = (u: string) => u.repeat(100);
    const entry = 200 + '1 u0'.length;
    const c = new NodeRenderCache(3 * entry);
    const s = c.scope(87, planNode(87, undefined), 'http://h');
    for (const u of ['u0', 'u1', 'u2']) keep(c, s, u, stamp(), text(u));
    expect(c.size).toBe(3);
    expect(c.chars).toBe(3 * entry);
    expect(c.get(s, 'u0', stamp())).toBe(text('u0'));
    keep(c, s, 'u3', stamp(), text('u3'));
    // u1 was the least recently used one.
    expect(c.get(s, 'u1', stamp())).toBeUndefined();
    for (const u of ['u0', 'u2', 'u3']) expect(c.get(s, u, stamp()), u).toBe(text(u));
    expect(c.chars).toBe(3 * entry);
    keep(c, s, 'big', stamp(), 'x'.repeat(400));
    expect(c.chars).toBeLessThanOrEqual(c.maxChars);
    expect(c.get(s, 'big', stamp())).toBe('x'.repeat(400));
    expect(c.get(s, 'u0', stamp())).toBeUndefined();
    // A text larger than the bound is not kept.
    keep(c, s, 'huge', stamp({ id: 9 }), 'x'.repeat(c.maxChars));
    expect(c.get(s, 'huge', stamp({ id: 9 }))).toBeUndefined();
    expect(c.chars).toBeLessThanOrEqual(c.maxChars);
  });

  it('forgets everything once too many scopes were asked for, and never reuses a scope id', () => {
    const c = new NodeRenderCache(100_000);
    const plan = planNode(87, undefined);
    const first = c.scope(87, plan, 'http://h0');
    keep(c, first, 'u', stamp(), 't');
    expect(c.get(first, 'u', stamp())).toBe('t');
    const ids = new Set([first]);
    for (let i = 1; i < 200; i++) ids.add(c.scope(87, plan, `http://h${i}`));
    expect(ids.size).toBe(200);
    expect(c.size).toBe(0);
    const again = c.scope(87, plan, 'http://h0');
    expect(ids.has(again)).toBe(false);
    expect(c.get(again, 'u', stamp())).toBeUndefined();
  });

  it('keeps nothing with a bound of 0', () => {
    const c = new NodeRenderCache(0);
    expect(c.enabled).toBe(false);
    const s = c.scope(87, planNode(87, undefined), 'http://h');
    keep(c, s, 'u', stamp(), 't');
    expect(c.get(s, 'u', stamp())).toBeUndefined();
    expect(c.size).toBe(0);
    expect(new NodeRenderCache(1).enabled).toBe(true);
  });
});
