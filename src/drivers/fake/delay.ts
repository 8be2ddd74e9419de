/**
 * Optional delays of the fake interfaces, for rehearsing scale and timing: driver_info
 * `fake_<iface>_delay` holds seconds, either one number (`2`, `"0.5"`) or a range (`"1:5"`, or `"1,5"` as
 * Ironic's `[fake] <iface>_delay` option), in which case each operation waits a random time in the range,
 * weighted towards the minimum (triangular, as Ironic's fake driver does).
 */
import type { Json } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';
import { sleep } from '../../shared/clock.js';
import type { DriverTask } from '../interfaces/base.js';

/** The delay range in seconds `[min, max]` of a `fake_<iface>_delay` value; `[0, 0]` when unset. */
export function parseDelay(value: Json | undefined, key = 'fake delay'): [number, number] {
  if (value === undefined || value === null || value === '') return [0, 0];
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : null;
  const parts = text?.split(/[:,]/).map((p) => p.trim());
  const nums = parts?.map(Number);
  if (!nums || nums.length > 2 || nums.some((n) => !Number.isFinite(n) || n < 0)) {
    throw fail('fakeDelayInvalid', { key, value: JSON.stringify(value) });
  }
  const min = nums[0] ?? 0;
  const max = nums[1] ?? min;
  if (max < min) throw fail('fakeDelayRangeReversed', { key, max, min });
  return [min, max];
}

/** Seconds to wait for one operation, triangular between min and max with mode at min. */
export function pickDelay([min, max]: [number, number], random: () => number = Math.random): number {
  if (max === min) return min;
  const u = random();
  return max - (max - min) * Math.sqrt(1 - u);
}

/** The `driver_info` key of the delay of `iface`. */
export function delayKey(iface: string): string {
  return `fake_${iface}_delay`;
}

/** Waits the configured delay of `iface` for this node (rejects when the task is abandoned). */
export async function fakeDelay(task: DriverTask, iface: string): Promise<void> {
  const key = delayKey(iface);
  const seconds = pickDelay(parseDelay(task.node.driver_info[key], key));
  if (seconds > 0) await sleep(seconds * 1000, task.signal);
}

/** Validates the delay key of `iface` (part of each fake interface's `validate`). */
export function validateDelay(task: DriverTask, iface: string): void {
  const key = delayKey(iface);
  parseDelay(task.node.driver_info[key], key);
}

/** The `properties` entry documenting the delay key of `iface`. */
export function delayProperty(iface: string): Record<string, string> {
  return {
    [delayKey(iface)]: `Seconds each ${iface} operation of the fake driver takes: a number or a "min:max" range. Optional.`,
  };
}
