/**
 * Python regular expressions (the rules DSLs use Python's `re`) compiled to JavaScript RegExps. The two
 * dialects share nearly all syntax rules use in practice; the differences handled here are Python's
 * leading global flags (`(?i)dell`), named groups `(?P<n>…)` / `(?P=n)` and `\A` / `\Z`. Anything the
 * JavaScript engine refuses is reported as an invalid regular expression.
 */

/** The compiled pattern, or a message saying why it is not a valid regular expression. */
export type CompiledRegex = { ok: true; regex: RegExp } | { ok: false; error: string };

/**
 * Compiles a Python pattern. `mode` `search` finds it anywhere (`re.search`, the `contains` operator);
 * `fullmatch` requires it to match the whole value (the `matches` operator).
 */
export function compilePyRegex(pattern: string, mode: 'search' | 'fullmatch' = 'search'): CompiledRegex {
  let source = pattern;
  let flags = '';
  const lead = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (lead) {
    for (const f of lead[1]!) {
      if (f === 'i' || f === 'm' || f === 's') flags += flags.includes(f) ? '' : f;
      else if (f === 'x') return { ok: false, error: 'verbose mode (?x) is not supported' };
      // a, L, u: ASCII / locale / unicode matching; no effect on the JavaScript engine here.
    }
    source = source.slice(lead[0].length);
  }
  source = source
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/(^|[^\\])\\A/g, '$1(?<![\\s\\S])')
    .replace(/(^|[^\\])\\Z/g, '$1(?![\\s\\S])');
  // NOTE: upstream appends "$" and uses re.match, so "a|b" there also matches "ab…" (the "$" binds to
  // the last alternative only); wrapping the whole pattern gives the documented full match.
  if (mode === 'fullmatch') source = `^(?:${source})$`;
  try {
    return { ok: true, regex: new RegExp(source, flags) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err) };
  }
}
