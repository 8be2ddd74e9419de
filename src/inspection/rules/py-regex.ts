/**
 * Python regular expressions (the rules DSLs use Python's `re`) run on RE2's linear-time engine
 * (`re2js`), so no pattern a rule carries can hold the event loop: matching time grows with the input,
 * never exponentially. RE2 reads Python's syntax for nearly everything rules use (named groups
 * `(?P<n>…)`, inline flags `(?i)`, `\A`); `\Z` becomes RE2's `\z`. What RE2 cannot run in linear time
 * (backreferences, lookahead and lookbehind) is refused with RE2's message naming the construct.
 */
import { RE2JS } from 're2js';

/** A compiled pattern: `test` says whether the value matches as the mode asks. */
export interface PyPattern {
  test(value: string): boolean;
}

/** The compiled pattern, or a message saying why it is not a valid regular expression. */
export type CompiledRegex = { ok: true; regex: PyPattern } | { ok: false; error: string };

const UNSUPPORTED = 'backreferences, lookahead and lookbehind are not supported: rules run on a linear-time regular expression engine';

/**
 * Compiles a Python pattern. `mode` `search` finds it anywhere (`re.search`, the `contains` operator);
 * `fullmatch` requires it to match the whole value (the `matches` operator).
 */
export function compilePyRegex(pattern: string, mode: 'search' | 'fullmatch' = 'search'): CompiledRegex {
  let source = pattern;
  let flags = 0;
  const lead = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (lead) {
    for (const f of lead[1]!) {
      if (f === 'i') flags |= RE2JS.CASE_INSENSITIVE;
      else if (f === 'm') flags |= RE2JS.MULTILINE;
      else if (f === 's') flags |= RE2JS.DOTALL;
      else if (f === 'x') return { ok: false, error: 'verbose mode (?x) is not supported' };
      // a, L, u: ASCII / locale / unicode matching; no effect on the engine here.
    }
    source = source.slice(lead[0].length);
  }
  source = source.replace(/(^|[^\\])((?:\\\\)*)\\Z/g, '$1$2\\z');
  // NOTE: upstream appends "$" and uses re.match, so "a|b" there also matches "ab…" (the "$" binds to
  // the last alternative only); the whole value must match here, as documented.
  try {
    const re = RE2JS.compile(source, flags);
    return { ok: true, regex: { test: (value) => (mode === 'fullmatch' ? re.matches(value) : re.matcher(value).find()) } };
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
    const unsupported = /\\[1-9]|\(\?[=!<]|\(\?P=/.test(source);
    return { ok: false, error: unsupported ? `${message} (${UNSUPPORTED})` : message };
  }
}
