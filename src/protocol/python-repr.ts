/**
 * A JSON value as Python's `repr()` prints it. Ironic's messages quote what the client sent this way
 * (jsonschema's "'x' is not one of […]", a JSON Patch quoted as a Python dict), so Ingot's read the same.
 */

/** `repr()` of a JSON value: `'a'`, `None`, `True`, `[1, 'b']`, `{'k': 'v'}`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'number') return pythonNumber(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/** A number as Python prints a float that is not finite (`nan`, `inf`), or as JavaScript does. */
export function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** Python quotes with `'` unless the text holds a `'` and no `"`, and escapes the rest. */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}
