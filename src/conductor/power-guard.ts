/**
 * The `disable_power_off` guard (Ironic's `node_power_action` refusal, API 1.95): a node's power
 * interface as its tasks see it. Every member is the implementation's own, delegated; a call of any
 * method that asks for a power-off state (`power off`, `soft power off`) on a node with
 * `disable_power_off` fails with InvalidState saying why, and the machine is left as it is — whatever asks
 * for it: a `power_off` step, a flow, a driver, and any method the power contract gains later. Flows that
 * would power such a node off reboot it or leave it on instead (drivers/power-actions.ts), so they never
 * meet this refusal.
 */
import { powersOff, type Node } from '../domain/node.js';
import type { PowerInterface } from '../drivers/interfaces/power.js';
import { fail } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

/** The names of `obj`'s members, its prototypes' included (implementations may be object literals or classes). */
function memberNames(obj: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = obj; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor') names.add(name);
  }
  return [...names];
}

/** A copy of `power` guarded for the node `node()` returns (see the module doc); one per task. */
export function refusingPowerOff(power: PowerInterface, node: () => Readonly<Node>, logger: Logger): PowerInterface {
  const guarded: Record<string, unknown> = {};
  for (const name of memberNames(power)) {
    const member: unknown = (power as unknown as Record<string, unknown>)[name];
    if (typeof member !== 'function') {
      guarded[name] = member;
      continue;
    }
    guarded[name] = (...args: unknown[]): unknown => {
      const n = node();
      const off = args.find((a): a is string => typeof a === 'string' && powersOff(a));
      if (n.disable_power_off && off !== undefined) {
        logger.error({ node: n.uuid }, `refusing to power off node ${n.uuid}: disable_power_off is set`);
        return Promise.reject(fail('powerOffRefused', { action: off, node: n.uuid }));
      }
      return (member as (...a: unknown[]) => unknown).apply(power, args);
    };
  }
  return guarded as unknown as PowerInterface;
}
