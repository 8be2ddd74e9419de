import type { Json } from '../../domain/node.js';
import type { HookResult, InspectionHook } from './types.js';

/** A python-hardware fact is `[category, item, key, value]`. */
const ITEM_SIZE = 4;

/** Python `int(text)` for the plain decimal forms, when the result is exact in a JS number. */
function toInt(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value !== 'string' || !/^\s*[+-]?\d+\s*$/.test(value)) return value;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : value;
}

/**
 * `extra-hardware`: turns the python-hardware facts the agent's `extra-hardware` collector sends in plugin
 * data `data` (`[category, item, key, value]` lists) into the nested dict `extra`
 * (`extra[category][item][key] = value`, numbers as integers) and drops `data`, as Ironic's
 * ExtraHardwareHook, so that inspection rules can address the facts. Data in another shape is left
 * alone (and dropped when `extra_hardware_strict` is on, which also requires exactly 4 fields per fact).
 */
export const extraHardwareHook: InspectionHook = {
  name: 'extra-hardware',
  run({ pluginData, config }) {
    if (!('data' in pluginData)) return { notes: [{ level: 'warning', message: 'no extra hardware information was received from the ramdisk' }] };
    const data = pluginData.data;
    const strict = config.extra_hardware_strict;
    const valid = Array.isArray(data) && data.every((item) => Array.isArray(item) && (!strict || item.length === ITEM_SIZE));
    if (!valid) {
      const result: HookResult = { notes: [{ level: 'warning', message: 'extra hardware data is not in a recognised format; not converted' }] };
      if (strict) result.pluginData = { data: undefined };
      return result;
    }
    const converted: Record<string, Record<string, Record<string, Json>>> = {};
    const notes: NonNullable<HookResult['notes']> = [];
    for (const item of data as unknown[][]) {
      if (item.length === 0) continue;
      const [category, name, key] = item.map(String);
      const level1 = (converted[category!] ??= {});
      const level2 = (level1[name ?? 'undefined'] ??= {});
      if (item.length < ITEM_SIZE) {
        if (notes.length < 10) notes.push({ level: 'warning', message: `ignoring invalid extra data item ${JSON.stringify(item)}` });
        continue;
      }
      level2[key!] = toInt(item[3]) as Json;
    }
    return { pluginData: { extra: converted, data: undefined }, notes };
  },
};
