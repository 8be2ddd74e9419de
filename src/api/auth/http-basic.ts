/**
 * `http_basic` (Ironic's `auth_strategy = http_basic`): `Authorization: Basic …` checked against the
 * bcrypt entries of an htpasswd file (`api.http_basic_auth_user_file`). Every user it accepts is an
 * admin of the whole system, as in Ironic, whose policy lets anyone through without Keystone.
 *
 * bcrypt is meant to be slow, far too slow to run on every request, so a verified pair is remembered:
 * by an HMAC-SHA256 of user and password under a key drawn at random for this process (the pair itself is
 * never kept, logged or compared as text), for at most `cacheTtlMs`, in at most `cacheSize` entries, and
 * forgotten whenever the file changes. The file is checked for a change (size, times, inode) at most once
 * per `recheckMs`, by the first request after that; a file that no longer reads or parses lets nobody in
 * (and says why in the log) until it is fixed. Wrong pairs are never remembered.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import bcrypt from 'bcryptjs';
import { fail, IngotError, messageOf } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { parseHtpasswd } from './htpasswd.js';
import type { AuthStrategy, Identity } from './strategy.js';

export interface HttpBasicOptions {
  /** The htpasswd file. */
  path: string;
  logger: Logger;
  /** Least time between two checks of the file for a change (default 1 s; 0 checks on every request). */
  recheckMs?: number;
  /** Most verified pairs remembered (default 1000). */
  cacheSize?: number;
  /** How long a verified pair is remembered (default 5 minutes). */
  cacheTtlMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** What identifies a version of the file. */
const versionOf = (s: Stats) => `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/** Strict base64 (Python's `b64decode(validate=True)`). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the file once (ConfigInvalid when it does not read or parse) and returns the strategy. */
export function httpBasicStrategy(opts: HttpBasicOptions): AuthStrategy {
  const { path, logger } = opts;
  const recheckMs = opts.recheckMs ?? 1000;
  const cacheSize = opts.cacheSize ?? 1000;
  const cacheTtlMs = opts.cacheTtlMs ?? 5 * 60_000;
  const now = opts.now ?? Date.now;
  const key = randomBytes(32);
  /** HMAC of a verified pair -> the user and when it is forgotten; oldest first. */
  const verified = new Map<string, { user: string; until: number }>();

  let users: Map<string, string>;
  let version: string;
  try {
    version = versionOf(statSync(path));
    users = parseHtpasswd(readFileSync(path, 'utf8'), path);
  } catch (err) {
    if (err instanceof IngotError) throw err;
    throw fail('htpasswdUnreadable', { path, reason: messageOf(err) });
  }
  logger.info({ path, users: users.size }, `http_basic: ${users.size} user(s) from ${path}`);

  let checkedAt = now();
  let checking: Promise<void> | undefined;
  const reload = async (): Promise<void> => {
    let next: string;
    try {
      next = versionOf(await stat(path));
      if (next === version) return;
      users = parseHtpasswd(await readFile(path, 'utf8'), path);
      logger.info({ path, users: users.size }, `http_basic: ${path} changed; ${users.size} user(s)`);
    } catch (err) {
      next = '';
      users = new Map();
      logger.error({ path }, `http_basic: nobody can log in until ${path} is fixed: ${messageOf(err)}`);
    }
    version = next;
    verified.clear();
  };
  const fresh = (): Promise<void> | undefined => {
    if (checking) return checking;
    if (now() - checkedAt < recheckMs) return undefined;
    checkedAt = now();
    return (checking = reload().finally(() => {
      checking = undefined;
    }));
  };

  const verify = async (user: string, password: Buffer, digest: string): Promise<Identity> => {
    const hash = users.get(user);
    const text = decodePassword(password);
    // An unknown user costs a bcrypt check too, so that the time taken does not tell who exists.
    const decoy = hash ?? users.values().next().value;
    const match = decoy !== undefined && text !== undefined && (await bcrypt.compare(text, decoy));
    if (hash === undefined || !match || users.get(user) !== hash) {
      logger.info({ user }, hash === undefined ? `http_basic: user ${user} not found` : `http_basic: wrong password for ${user}`);
      throw fail('authIncorrect');
    }
    if (verified.size >= cacheSize) verified.delete(verified.keys().next().value as string);
    verified.set(digest, { user, until: now() + cacheTtlMs });
    return identity(user);
  };

  const authenticate = (headers: IncomingHttpHeaders): Identity | Promise<Identity> => {
    const { user, password } = credentials(headers.authorization);
    const digest = createHmac('sha256', key).update(`${Buffer.byteLength(user)}:${user}:`).update(password).digest('base64');
    const pending = fresh();
    if (pending) return pending.then(() => known(digest) ?? verify(user, password, digest));
    return known(digest) ?? verify(user, password, digest);
  };
  const known = (digest: string): Identity | undefined => {
    const hit = verified.get(digest);
    if (!hit) return undefined;
    if (hit.until > now()) return identity(hit.user);
    verified.delete(digest);
    return undefined;
  };

  return { name: 'http_basic', authenticate, close: () => verified.clear() };
}

/** An http_basic user: an admin of the whole system. */
function identity(user: string): Identity {
  return { user, roles: ['admin'], is_admin: true, system_scope: 'all' };
}

/** The user and password of an `Authorization` header, refused as ironic-lib refuses them. */
function credentials(header: string | undefined): { user: string; password: Buffer } {
  if (header === undefined) throw fail('authRequired');
  const trimmed = header.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) throw fail('authHeaderUnparsable');
  const type = trimmed.slice(0, space);
  if (type.toLowerCase() !== 'basic') throw fail('authTypeUnsupported', { type });
  const token = trimmed.slice(space).trim();
  if (!BASE64.test(token)) throw fail('authTokenUndecodable');
  const pair = Buffer.from(token, 'base64');
  const colon = pair.indexOf(0x3a);
  if (colon < 0) throw fail('authTokenUndecodable');
  let user: string;
  try {
    user = utf8.decode(pair.subarray(0, colon));
  } catch {
    throw fail('authTokenUndecodable');
  }
  return { user, password: pair.subarray(colon + 1) };
}

/** The password as bcryptjs takes it (text, encoded back to the same UTF-8 bytes); undefined when it is not UTF-8. */
function decodePassword(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
