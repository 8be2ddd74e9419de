import { describe, expect, it } from 'vitest';
import {
  S, STATES, STABLE_STATES, STUCK_STATES_TREATED_AS_FAIL, TRANSITIONS, VERBS, WAIT_STATES,
  eventsFrom, failureStateOf, targetAfter, transition, type ProvisionState,
} from './states.js';

const ALL = Object.keys(STATES) as ProvisionState[];

function reachableFrom(start: ProvisionState): Set<ProvisionState> {
  const seen = new Set<ProvisionState>([start]);
  const queue = [start];
  while (queue.length) {
    const s = queue.shift()!;
    for (const [from, , to] of TRANSITIONS) {
      if (from === s && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

describe('the provision state table', () => {
  it('reaches every state from enroll', () => {
    expect([...reachableFrom(S.ENROLL)].sort()).toEqual([...ALL].sort());
  });

  it('lets every state reach a stable state', () => {
    for (const s of ALL) {
      const stable = [...reachableFrom(s)].filter((r) => STATES[r].stable && r !== s);
      expect(stable.length, `${s} has no way to a stable state`).toBeGreaterThan(0);
    }
  });

  it('has an exit from every failure state', () => {
    const failures = new Set(TRANSITIONS.filter(([, ev]) => ev === 'fail').map(([, , to]) => to));
    for (const f of failures) expect(eventsFrom(f).length, f).toBeGreaterThan(0);
  });

  it('names only known states and has no duplicate (from, event)', () => {
    const keys = new Set<string>();
    for (const [from, ev, to] of TRANSITIONS) {
      expect(ALL).toContain(from);
      expect(ALL).toContain(to);
      const k = `${from}/${ev}`;
      expect(keys.has(k), k).toBe(false);
      keys.add(k);
    }
  });

  it('gives every busy state a failure state, so a dead conductor leaves a defined state', () => {
    for (const s of STUCK_STATES_TREATED_AS_FAIL) expect(failureStateOf(s), s).toBeDefined();
    for (const s of WAIT_STATES) expect(failureStateOf(s), s).toBeDefined();
  });

  it('maps every API verb to an event some state accepts', () => {
    for (const [verb, { event }] of Object.entries(VERBS)) {
      expect(ALL.some((s) => transition(s, event) !== undefined), verb).toBe(true);
    }
  });

  it('follows the lifecycle manage → provide → deploy → undeploy', () => {
    let s: ProvisionState = S.ENROLL;
    const step = (ev: Parameters<typeof transition>[1]) => {
      const next = transition(s, ev);
      expect(next, `${s} --${ev}-->`).toBeDefined();
      s = next!;
    };
    for (const ev of ['manage', 'done', 'provide', 'done', 'deploy', 'wait', 'resume', 'done', 'delete', 'clean', 'done'] as const) step(ev);
    expect(s).toBe(S.AVAILABLE);
  });

  it('refuses what Ironic refuses', () => {
    expect(transition(S.ENROLL, 'deploy')).toBeUndefined();
    expect(transition(S.AVAILABLE, 'delete')).toBeUndefined();
    expect(transition(S.ACTIVE, 'provide')).toBeUndefined();
    expect(transition(S.MANAGEABLE, 'abort')).toBeUndefined();
  });

  it('keeps stable states without a target and busy states with one', () => {
    for (const s of ALL) expect(STATES[s].stable === (STATES[s].target === null), s).toBe(true);
    expect(STABLE_STATES).toEqual(expect.arrayContaining([S.ENROLL, S.MANAGEABLE, S.AVAILABLE, S.ACTIVE, S.ERROR, S.RESCUE]));
  });

  it('keeps the target of the operation through waits, holds, failures and aborts', () => {
    expect(targetAfter('fail', S.CLEANFAIL, S.MANAGEABLE)).toBe(S.MANAGEABLE);
    expect(targetAfter('abort', S.CLEANFAIL, S.MANAGEABLE)).toBe(S.MANAGEABLE);
    expect(targetAfter('fail', S.DEPLOYFAIL, S.ACTIVE)).toBe(S.ACTIVE);
    // A new operation from a failure state heads for its own target; a stable state has none.
    expect(targetAfter('rescue', S.RESCUING, S.ACTIVE)).toBe(S.RESCUE);
    expect(targetAfter('unrescue', S.UNRESCUING, S.RESCUE)).toBe(S.ACTIVE);
    expect(targetAfter('fail', S.ERROR, S.AVAILABLE)).toBeNull();
  });
});
