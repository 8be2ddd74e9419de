/**
 * Ironic API microversions: parsing the request headers, the supported range and the headers every
 * response carries. A request without a version header gets the minimum (1.1), as Ironic does.
 */
import { fail } from '../shared/errors.js';

/** Lowest supported minor version (1.1). */
export const MIN_MINOR = 1;
/**
 * Highest supported minor version: 1.96 (inspection rules). Of the resources added up to it, allocations
 * (1.52), deploy templates (1.55), volume targets/connectors (1.32) and runbooks (1.92) are not served.
 */
export const MAX_MINOR = 96;

export const VERSION_HEADER = 'x-openstack-ironic-api-version';
export const STANDARD_HEADER = 'openstack-api-version';

/** `1.Y` */
export function versionString(minor: number): string {
  return `1.${minor}`;
}

const RANGE = `[${versionString(MIN_MINOR)}, ${versionString(MAX_MINOR)}]`;

/** The header value a client sent, preferring Ironic's own header over the standard one. */
function requestedVersion(headers: Record<string, string | string[] | undefined>): string | undefined {
  const own = headers[VERSION_HEADER];
  if (typeof own === 'string' && own.trim() !== '') return own.trim();
  const std = headers[STANDARD_HEADER];
  if (typeof std === 'string') {
    // `OpenStack-API-Version: baremetal 1.Y` (possibly listing other services, comma separated).
    for (const part of std.split(',')) {
      const [service, value] = part.trim().split(/\s+/, 2);
      if (service?.toLowerCase() === 'baremetal' && value) return value;
    }
  }
  return undefined;
}

/**
 * The minor version a request asks for. Throws NotAcceptable (406) for a malformed value, a wrong
 * major version or a minor version outside {@link MIN_MINOR}..{@link MAX_MINOR}.
 */
export function parseVersion(headers: Record<string, string | string[] | undefined>): number {
  const raw = requestedVersion(headers);
  if (raw === undefined) return MIN_MINOR;
  if (raw.toLowerCase() === 'latest') return MAX_MINOR;
  const m = /^(\d+)\.(\d+)$/.exec(raw);
  if (!m) throw fail('versionHeaderInvalid', { version: raw });
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major !== 1) {
    throw fail('versionMajorUnsupported', { version: raw, range: RANGE });
  }
  if (minor < MIN_MINOR || minor > MAX_MINOR) {
    throw fail('versionMinorUnsupported', { version: raw, range: RANGE });
  }
  return minor;
}

/** The version headers of a response answered at `minor`. */
export function versionHeaders(minor: number): Record<string, string> {
  return {
    'x-openstack-ironic-api-minimum-version': versionString(MIN_MINOR),
    'x-openstack-ironic-api-maximum-version': versionString(MAX_MINOR),
    'x-openstack-ironic-api-version': versionString(minor),
    'openstack-api-version': `baremetal ${versionString(minor)}`,
    vary: 'X-OpenStack-Ironic-API-Version, OpenStack-API-Version',
  };
}

/** Throws NotAcceptable (406) unless the request's version is at least `1.min`. */
export function requireVersion(minor: number, min: number, what: string): void {
  if (minor < min) throw fail('versionTooOldFor', { version: versionString(min), what });
}

/** Throws NotFound (404) unless the request's version is at least `1.min`: a URL newer than the version. */
export function requireUrlVersion(minor: number, min: number): void {
  if (minor < min) throw fail('resourceNotFound');
}
