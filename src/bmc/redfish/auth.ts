/**
 * Who is calling: HTTP Basic credentials or a session token (`X-Auth-Token`, DSP0266 §13.3). Every
 * machine has its own BMC credentials, so one emulator serves many principals; a principal sees only
 * the machines whose credentials it presented.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock.js';
import type { Machine } from '../machine.js';

/** A caller, identified by the BMC credentials it presented (directly or when opening its session). */
export interface Principal {
  username: string;
  password: string;
}

/** An open Redfish session. */
export interface RedfishSession {
  id: string;
  token: string;
  principal: Principal;
  createdAt: number;
  lastUsedAt: number;
}

/** True when `principal` holds `machine`'s BMC credentials. */
export function owns(principal: Principal, machine: Machine): boolean {
  return machine.username === principal.username && machine.password === principal.password;
}

/** Machines `principal` may act on: its own, except those whose BMC rejects every login. */
export function visibleMachines(principal: Principal, machines: Iterable<Machine>): Machine[] {
  const out: Machine[] = [];
  for (const m of machines) if (owns(principal, m) && !m.faults.reject_credentials) out.push(m);
  return out;
}

/** True when `principal` may log in: it owns at least one machine that accepts logins. */
export function canLogIn(principal: Principal, machines: Iterable<Machine>): boolean {
  for (const m of machines) if (owns(principal, m) && !m.faults.reject_credentials) return true;
  return false;
}

/** The credentials of an `Authorization: Basic …` header, if it is one. */
export function parseBasic(header: string | undefined): Principal | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Open sessions, expiring after `timeoutMs` without use (the SessionService's `SessionTimeout`). */
export class SessionStore {
  private readonly byToken = new Map<string, RedfishSession>();
  private readonly byId = new Map<string, RedfishSession>();

  constructor(
    public timeoutMs: number,
    private readonly clock: Clock,
  ) {}

  create(principal: Principal): RedfishSession {
    const now = this.clock.now();
    const session: RedfishSession = { id: randomUUID().replace(/-/g, '').slice(0, 16), token: randomBytes(24).toString('hex'), principal, createdAt: now, lastUsedAt: now };
    this.byToken.set(session.token, session);
    this.byId.set(session.id, session);
    return session;
  }

  /** The live session of `token`, marked as used now; expired sessions are removed on the way. */
  use(token: string): RedfishSession | undefined {
    const session = this.byToken.get(token);
    if (!session) return undefined;
    if (this.expired(session)) {
      this.delete(session.id);
      return undefined;
    }
    session.lastUsedAt = this.clock.now();
    return session;
  }

  /** The live session `id` (not marked as used). */
  get(id: string): RedfishSession | undefined {
    const session = this.byId.get(id);
    if (session && this.expired(session)) {
      this.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string): boolean {
    const session = this.byId.get(id);
    if (!session) return false;
    this.byId.delete(id);
    this.byToken.delete(session.token);
    return true;
  }

  /** Live sessions opened with `principal`'s credentials. */
  list(principal: Principal): RedfishSession[] {
    const out: RedfishSession[] = [];
    for (const s of [...this.byId.values()]) {
      if (this.expired(s)) this.delete(s.id);
      else if (s.principal.username === principal.username && s.principal.password === principal.password) out.push(s);
    }
    return out;
  }

  private expired(session: RedfishSession): boolean {
    return this.clock.now() - session.lastUsedAt > this.timeoutMs;
  }
}
