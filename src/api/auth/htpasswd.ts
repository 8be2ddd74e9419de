/**
 * Apache htpasswd files as Ironic's `http_basic` reads them (ironic-lib `auth_basic`): one `user:hash`
 * entry a line, bcrypt hashes only (`$2y$`, `$2b$`, `$2a$`, what `htpasswd -B` writes). Unlike
 * ironic-lib, which skips what it cannot read until a user needs it, every line is checked at load: a
 * malformed line, another digest or a user given twice refuses the whole file, naming the line (never
 * its hash).
 */
import { fail } from '../../shared/errors.js';

/** A bcrypt hash: version, two-digit cost, 22 characters of salt and 31 of digest. */
const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/** The users of a file and their bcrypt hashes. */
export function parseHtpasswd(text: string, path: string): Map<string, string> {
  const users = new Map<string, string>();
  const lineOf = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const entry = raw.trim();
    const line = i + 1;
    if (entry === '' || entry.startsWith('#')) return;
    const colon = entry.indexOf(':');
    if (colon <= 0) throw fail('htpasswdLineInvalid', { path, line });
    const username = entry.slice(0, colon);
    const hash = entry.slice(colon + 1);
    if (!/^\$2[aby]\$/.test(hash)) throw fail('htpasswdNotBcrypt', { path, line, username });
    if (!BCRYPT.test(hash)) throw fail('htpasswdLineInvalid', { path, line });
    const first = lineOf.get(username);
    if (first !== undefined) throw fail('htpasswdUserTwice', { path, line, username, first });
    lineOf.set(username, line);
    users.set(username, hash);
  });
  return users;
}
