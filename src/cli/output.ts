/**
 * Rendering of results in the three formats of the client: `table` (bordered, aligned columns like
 * the `baremetal` CLI: a Field/Value table for one object, a row table for lists), `json` (the API's
 * field names and values, pretty-printed), and `value` (bare values separated by spaces, one row per
 * line, for shell scripts).
 */
import { fail } from '../shared/errors.js';

export type OutputFormat = 'table' | 'json' | 'value';

/** A column of a row table: the API field and its heading. */
export interface Column {
  field: string;
  label: string;
}

/** Checks a `--format` value. */
export function parseFormat(value: string): OutputFormat {
  if (value === 'table' || value === 'json' || value === 'value') return value;
  throw fail('formatOptionInvalid', { format: value });
}

/** Heading of an API field: `provision_state` → `Provisioning State`, `node_uuid` → `Node UUID`. */
export function labelOf(field: string): string {
  const special: Record<string, string> = {
    provision_state: 'Provisioning State',
    provision_updated_at: 'Provision Updated At',
    pxe_enabled: 'PXE boot enabled',
    is_smartnic: 'Is Smart NIC port',
    event: 'Description',
  };
  if (special[field]) return special[field];
  return field
    .split('_')
    .map((w) => (w === 'uuid' ? 'UUID' : w === 'id' ? 'ID' : w === 'ms' ? '(ms)' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/** Columns for a list of fields. */
export function columns(fields: string[]): Column[] {
  return fields.map((field) => ({ field, label: labelOf(field) }));
}

/** One cell as text: `None` for null, `True`/`False`, JSON for objects, newlines flattened. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value.replace(/\r?\n/g, ' ');
  if (typeof value === 'number') return String(value);
  return inlineJson(value);
}

/** JSON on one line with `, ` and `: ` separators, the way the `baremetal` CLI prints dicts. */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(inlineJson).join(', ') + ']';
  if (typeof value === 'object' && value !== null) {
    return '{' + Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ') + '}';
  }
  return JSON.stringify(value) ?? 'null';
}

/** A bordered table of `headers` and `rows`, each column as wide as its widest cell. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const rule = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - width(c))).join(' | ') + ' |';
  const out = [rule, line(headers), rule];
  if (rows.length > 0) {
    for (const r of rows) out.push(line(headers.map((_, i) => r[i] ?? '')));
    out.push(rule);
  }
  return out.join('\n') + '\n';
}

/** One object as Field/Value (table), an object (json), or one value per line (value). */
export function renderObject(obj: Record<string, unknown>, format: OutputFormat, fields?: string[]): string {
  const keys = fields ?? Object.keys(obj).filter((k) => k !== 'links').sort();
  if (format === 'json') return JSON.stringify(Object.fromEntries(keys.map((k) => [k, obj[k] ?? null])), null, 2) + '\n';
  if (format === 'value') return keys.map((k) => cell(obj[k]) + '\n').join('');
  return renderTable(['Field', 'Value'], keys.map((k) => [k, cell(obj[k])]));
}

/** Many objects as a row table (table), an array of objects with the columns' fields (json), or rows (value). */
export function renderRows(items: Record<string, unknown>[], cols: Column[], format: OutputFormat): string {
  if (format === 'json') {
    return JSON.stringify(items.map((it) => Object.fromEntries(cols.map((c) => [c.field, it[c.field] ?? null]))), null, 2) + '\n';
  }
  const rows = items.map((it) => cols.map((c) => cell(it[c.field])));
  if (format === 'value') return rows.map((r) => r.join(' ') + '\n').join('');
  return renderTable(cols.map((c) => c.label), rows);
}

function width(s: string): number {
  return [...s].length;
}
