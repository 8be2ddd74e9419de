/**
 * The `driver_info` keys of the Redfish interfaces (Ironic's names and meanings) and their parsing. Parsing
 * does no network I/O; it only checks that a CA bundle path names an existing file or directory, as Ironic
 * does.
 */
import { statSync } from 'node:fs';
import type { Json, Node } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';

/** How the client authenticates: Redfish sessions, HTTP basic, or sessions with a fall-back to basic. */
export type RedfishAuthType = 'basic' | 'session' | 'auto';

/** Connection facts of one node's BMC, parsed from `driver_info`. */
export interface RedfishDriverInfo {
  /** `https://host:port` (no path): the BMC's identity for limits and messages. */
  origin: string;
  /** Path prefix of the address (`/proxy/bmc1`), empty for none; never ends with `/`. */
  prefix: string;
  /** Path of the system (e.g. `/redfish/v1/Systems/1`), or null to use the service's only system. */
  systemId: string | null;
  username: string | null;
  password: string | null;
  /** True to verify the certificate against the system CAs, false not to, or the path of a CA bundle (file or directory). */
  verifyCa: boolean | string;
  authType: RedfishAuthType;
  /** Per-request timeout in milliseconds, or null for the driver setting. */
  requestTimeoutMs: number | null;
}

/** The `properties` record of every Redfish interface. */
export const REDFISH_PROPERTIES: Readonly<Record<string, string>> = Object.freeze({
  redfish_address: 'The URL of the Redfish service: http(s)://host[:port][/prefix], or a bare host meaning https. Required.',
  redfish_system_id: 'The path of the system, e.g. /redfish/v1/Systems/1. Optional when the service has exactly one system.',
  redfish_username: 'User name for the BMC. Optional.',
  redfish_password: 'Password for the BMC. Optional.',
  redfish_verify_ca: 'True (default) to verify the BMC certificate against the system CAs, False not to verify, or the path of a CA bundle file or directory. Optional.',
  redfish_auth_type: 'basic, session or auto (default: session, falling back to basic when the service has no SessionService). Optional.',
  redfish_request_timeout: 'Seconds one HTTP request to the BMC may take (default 60). Optional.',
});

const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'f', 'false', 'off', 'n', 'no']);

function optionalString(info: Record<string, Json>, key: string): string | null {
  const v = info[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw fail('driverInfoNotString', { key, value: JSON.stringify(v) });
  return v;
}

function parseAddress(raw: string): { origin: string; prefix: string } {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw fail('redfishAddressNotUrl', { address: JSON.stringify(raw) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail('redfishAddressNotHttp', { address: JSON.stringify(raw) });
  }
  if (!url.hostname) throw fail('redfishAddressNoHost', { address: JSON.stringify(raw) });
  if (url.search || url.hash) throw fail('redfishAddressHasQuery', { address: JSON.stringify(raw) });
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

function parseVerifyCa(v: Json | undefined): boolean | string {
  if (v === undefined || v === null || v === '') return true;
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') throw fail('redfishVerifyCaNotBoolOrPath', { value: JSON.stringify(v) });
  const word = v.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  let isCa = false;
  try {
    const st = statSync(v);
    isCa = st.isFile() || st.isDirectory();
  } catch {
    isCa = false;
  }
  if (!isCa) {
    throw fail('redfishVerifyCaInvalid', { value: JSON.stringify(v) });
  }
  return v;
}

function parseTimeout(v: Json | undefined): number | null {
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) throw fail('redfishRequestTimeoutInvalid', { value: JSON.stringify(v) });
  return Math.round(n * 1000);
}

function parseSystemId(v: string | null): string | null {
  if (v === null) return null;
  const id = v.trim();
  if (/[\s?#]/.test(id)) throw fail('redfishSystemIdInvalid', { value: JSON.stringify(v) });
  // A bare member id is taken as a member of the standard Systems collection.
  return id.startsWith('/') ? id.replace(/\/+$/, '') : `/redfish/v1/Systems/${encodeURIComponent(id)}`;
}

/** Parses and checks the node's Redfish `driver_info`; throws MissingParameterValue or InvalidParameterValue naming the key. */
export function parseRedfishDriverInfo(node: Pick<Node, 'driver_info' | 'uuid'>): RedfishDriverInfo {
  const info = node.driver_info;
  const address = info['redfish_address'];
  if (address === undefined || address === null || address === '') {
    throw fail('redfishAddressMissing', { node: node.uuid });
  }
  if (typeof address !== 'string') throw fail('driverInfoNotString', { key: 'redfish_address', value: JSON.stringify(address) });
  const { origin, prefix } = parseAddress(address);
  const authRaw = optionalString(info, 'redfish_auth_type') ?? 'auto';
  const authType = authRaw.trim().toLowerCase();
  if (authType !== 'basic' && authType !== 'session' && authType !== 'auto') {
    throw fail('redfishAuthTypeInvalid', { value: JSON.stringify(authRaw) });
  }
  return {
    origin,
    prefix,
    systemId: parseSystemId(optionalString(info, 'redfish_system_id')),
    username: optionalString(info, 'redfish_username'),
    password: optionalString(info, 'redfish_password'),
    verifyCa: parseVerifyCa(info['redfish_verify_ca']),
    authType,
    requestTimeoutMs: parseTimeout(info['redfish_request_timeout']),
  };
}
