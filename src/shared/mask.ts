/**
 * Secret masking, the one place for it: oslo.utils' `strutils.mask_password` (secret-looking
 * `key=value`, `"key": "value"`, `--key value`, `<key>value</key>` in free text) and
 * `mask_dict_password` (values under secret-looking keys, at any depth), with the same key list and
 * patterns, plus what oslo does not cover: credentials inside URLs (`scheme://user:pass@host`) and the
 * known secret values of a node wherever they appear in a text. What Ingot shows or writes for people
 * (API answers, node history, last_error, logs) goes through here; what the conductor uses does not.
 */

/** The mask Ironic shows in place of a secret. */
export const MASK = '******';

/** oslo.utils `_SANITIZE_KEYS`: a key containing one of these (case-insensitively) holds a secret. */
export const SANITIZE_KEYS: readonly string[] = [
  'adminpass', 'admin_pass', 'password', 'admin_password', 'auth_token', 'new_pass', 'auth_password', 'secret_uuid',
  'secret', 'sys_pswd', 'token', 'configdrive', 'chappassword', 'encrypted_key', 'private_key', 'fernetkey', 'sslkey',
  'passphrase', 'cephclusterfsid', 'octaviaheartbeatkey', 'rabbitcookie', 'cephmanilaclientkey', 'pacemakerremoteauthkey',
  'designaterndckey', 'cephadminkey', 'heatauthencryptionkey', 'cephclientkey', 'keystonecredential',
  'barbicansimplecryptokek', 'cephrgwkey', 'swifthashsuffix', 'migrationsshkey', 'cephmdskey', 'cephmonkey',
];

// oslo's `_FORMAT_PATTERNS_*`, `KEY` standing for each key (all keys are letters and underscores).
const FORMAT_1 = [String.raw`(KEY[0-9]*\s*[=]\s*)[^\s^'^"]+`];
const FORMAT_2 = [
  String.raw`(KEY[0-9]*\s*[=]\s*["'])[^"']*(["'])`,
  String.raw`(KEY[0-9]*\s*[=]\s*["])[^"]*(["])`,
  String.raw`(KEY[0-9]*\s*[=]\s*['])[^']*(['])`,
  String.raw`(KEY[0-9]*\s+["'])[^"']*(["'])`,
  String.raw`([-]{2}KEY[0-9]*\s+)[^'^"^=^\s]+([\s]*)`,
  String.raw`(<KEY[0-9]*>)[^<]*(</KEY[0-9]*>)`,
  String.raw`(["']KEY[0-9]*["']\s*:\s*["'])[^"']*(["'])`,
  String.raw`(['"][^"']*KEY[0-9]*['"]\s*:\s*u?['"])[^"']*(['"])`,
  String.raw`(['"][^'"]*KEY[0-9]*['"]\s*,\s*'--?[A-z]+'\s*,\s*u?['"])[^"']*(['"])`,
  String.raw`(KEY[0-9]*\s*--?[A-z]+\s*)\S+(\s*)`,
];
const FORMAT_WILDCARD = [String.raw`(['"][^"']*KEY[0-9]*['"]\s*:\s*u?['"].*['"])[^"']*(['"])`];

interface KeyPatterns {
  key: string;
  two: RegExp[];
  one: RegExp[];
  wildcard: RegExp[];
}

const compile = (sources: string[], key: string) => sources.map((s) => new RegExp(s.replaceAll('KEY', key), 'gis'));
const PATTERNS: readonly KeyPatterns[] = SANITIZE_KEYS.map((key) => ({
  key, two: compile(FORMAT_2, key), one: compile(FORMAT_1, key), wildcard: compile(FORMAT_WILDCARD, key),
}));
/** One test for "mentions no key at all", the common case. */
const ANY_KEY = new RegExp(SANITIZE_KEYS.join('|'), 'i');

/**
 * `message` with the values of secret-looking `key=value` pairs (and oslo's other shapes) replaced by
 * `secret`: the output of oslo.utils `strutils.mask_password(message, secret)`.
 */
export function maskPassword(message: string, secret: string = MASK): string {
  if (!ANY_KEY.test(message)) return message;
  let out = message;
  let lower = message.toLowerCase();
  for (const p of PATTERNS) {
    if (!lower.includes(p.key)) continue;
    const before = out;
    for (const re of p.two) out = out.replace(re, (_m, a: string, b: string) => a + secret + b);
    for (const re of p.one) out = out.replace(re, (_m, a: string) => a + secret);
    for (const re of p.wildcard) out = out.replace(re, (_m, a: string) => a);
    if (out !== before) lower = out.toLowerCase();
  }
  return out;
}

const secretKeys = new Map<string, boolean>();

/** True when values under `key` are secrets (oslo's substring rule, case-insensitive). */
export function isSecretKey(key: string): boolean {
  let hit = secretKeys.get(key);
  if (hit === undefined) {
    const k = key.toLowerCase();
    hit = SANITIZE_KEYS.some((s) => k.includes(s));
    // Node fields use few distinct keys; the bound keeps hostile input from growing the map.
    if (secretKeys.size < 10_000) secretKeys.set(key, hit);
  }
  return hit;
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A copy of `dict` as oslo.utils `strutils.mask_dict_password(dict, secret)` returns it: nested
 * objects are masked in turn, a value under a secret-looking key becomes `secret`, other strings go
 * through `text` ({@link maskPassword} as oslo; {@link maskText} masks URL credentials too), anything
 * else is kept. Returns `dict` itself when nothing changes, so rendering many nodes without secrets
 * copies nothing.
 */
export function maskDict<T extends Dict>(dict: T, secret: string = MASK, text: (s: string, secret: string) => string = maskPassword): T {
  let out: Dict | undefined;
  for (const key of Object.keys(dict)) {
    const v = dict[key];
    const masked = isDict(v) ? maskDict(v, secret, text) : isSecretKey(key) ? secret : typeof v === 'string' ? text(v, secret) : v;
    if (masked !== v) (out ??= { ...dict })[key] = masked;
  }
  return (out ?? dict) as T;
}

/** `scheme://user:password@host` with the password masked (URLs with credentials in free text). */
export function maskUrlCredentials(text: string, secret: string = MASK): string {
  if (!text.includes('@')) return text;
  // A password already masked (only `*`) stays as it is.
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@'"]*:)([^/\s@'"]*)@/gi, (m, a: string, pw: string) => (/^\*+$/.test(pw) ? m : `${a}${secret}@`));
}

/** Free text for people (a log line, last_error, a history event): {@link maskPassword} and {@link maskUrlCredentials}. */
export function maskText(text: string, secret: string = MASK): string {
  return maskUrlCredentials(maskPassword(text, secret), secret);
}

/** Shorter values are not scrubbed from text by value (`on`, `1` would mask half a sentence). */
const MIN_SCRUBBED_LENGTH = 4;

/**
 * The secret strings inside `values`: every string under a secret-looking key at any depth (in lists
 * too), for {@link scrubValues}.
 */
export function secretValues(...values: unknown[]): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, secret: boolean, depth: number): void => {
    if (depth > 64) return;
    if (typeof v === 'string') {
      if (secret && v.length >= MIN_SCRUBBED_LENGTH) found.add(v);
    } else if (Array.isArray(v)) {
      for (const item of v) walk(item, secret, depth + 1);
    } else if (isDict(v)) {
      for (const key of Object.keys(v)) walk(v[key], secret || isSecretKey(key), depth + 1);
    }
  };
  for (const v of values) walk(v, false, 0);
  return [...found];
}

/** `text` with every occurrence of each of `values` replaced by the mask (longest first), then {@link maskText}. */
export function scrubValues(text: string, values: readonly string[], secret: string = MASK): string {
  let out = text;
  for (const v of [...values].sort((a, b) => b.length - a.length)) {
    if (v.length >= MIN_SCRUBBED_LENGTH && out.includes(v)) out = out.replaceAll(v, secret);
  }
  return maskText(out, secret);
}

/** The fields of a node that hold its secrets. */
export interface SecretHolder {
  driver_info: Dict;
  instance_info: Dict;
  driver_internal_info: Dict;
}

/**
 * The secret values a text about a node must not show: strings under secret-looking keys of its
 * driver_info, instance_info and driver_internal_info (the BMC password, the agent token, a config
 * drive's user data, an image pull secret), and its `instance_info.image_url`, which the API hides too.
 */
export function nodeSecretValues(node: SecretHolder): string[] {
  const imageUrl = node.instance_info.image_url;
  return secretValues(node.driver_info, node.instance_info, node.driver_internal_info, { secret: typeof imageUrl === 'string' ? imageUrl : null });
}
