/** JSON values as `JSON.parse` yields them: what every wire body and every free-form dict holds. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object (a free-form dict such as `extra` or `driver_info`). */
export type JsonObject = { [key: string]: Json };

/**
 * Why `value` would not come back from `JSON.parse(JSON.stringify(value))` as it is, or null when it
 * would: the first offending place (`path` names the value itself) and what is there. JSON drops an
 * `undefined` key and turns an `undefined` array element into null, NaN and Infinity into null, a Date
 * into a string and a Map or class instance into a bare object; functions, symbols and bigints it
 * cannot carry at all. Objects with a null prototype are plain data.
 */
export function jsonProblem(value: unknown, path = 'the value'): string | null {
  return problemAt(value, path, new Set());
}

function problemAt(value: unknown, path: string, open: Set<object>): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${path} is ${value}`;
    case 'undefined':
      return `${path} is undefined (leave it out instead)`;
    case 'object':
      break;
    default:
      return `${path} is a ${typeof value}`;
  }
  if (value === null) return null;
  if (open.has(value)) return `${path} contains itself`;
  open.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = problemAt(value[i], `${path}[${i}]`, open);
        if (problem) return problem;
      }
      return null;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `${path} is ${typeof name === 'string' && name !== '' ? `a ${name}` : 'not a plain object'}`;
    }
    for (const [key, v] of Object.entries(value)) {
      const problem = problemAt(v, `${path}.${key}`, open);
      if (problem) return problem;
    }
    return null;
  } finally {
    open.delete(value);
  }
}
