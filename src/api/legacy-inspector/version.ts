/**
 * API versions of the legacy ironic-inspector API: 1.0 to 1.18, asked for with
 * `X-OpenStack-Ironic-Inspector-API-Version` or `OpenStack-API-Version: baremetal-introspection 1.Y`
 * (`ironic_inspector/main.py` `check_api_version`), announced on every answer.
 */
import { fail, type IngotError } from '../../shared/errors.js';

export const INSPECTOR_MIN_MINOR = 0;
export const INSPECTOR_MAX_MINOR = 18;

/** The headers of every answer, for the minor version served. */
export function inspectorVersionHeaders(minor: number): Record<string, string> {
  return {
    'x-openstack-ironic-inspector-api-minimum-version': `1.${INSPECTOR_MIN_MINOR}`,
    'x-openstack-ironic-inspector-api-maximum-version': `1.${INSPECTOR_MAX_MINOR}`,
    'x-openstack-ironic-inspector-api-version': `1.${minor}`,
  };
}

/** An unsupported version: 406 as the inspector answered. */
function notAcceptable(requested: string): IngotError {
  return fail('inspectorVersionUnsupported', { version: requested, min: INSPECTOR_MIN_MINOR, max: INSPECTOR_MAX_MINOR });
}

/** The requested minor version (the oldest when none is asked for, as the inspector did). */
export function parseInspectorVersion(headers: Record<string, string | string[] | undefined>): number {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  let requested = first(headers['x-openstack-ironic-inspector-api-version']);
  if (requested === undefined) {
    const standard = first(headers['openstack-api-version']);
    const m = standard ? /(?:^|,)\s*baremetal-introspection\s+(\S+)/i.exec(standard) : null;
    requested = m?.[1];
  }
  if (requested === undefined) return INSPECTOR_MIN_MINOR;
  const v = requested.trim().toLowerCase();
  if (v === 'latest') return INSPECTOR_MAX_MINOR;
  const m = /^1\.(\d+)$/.exec(v);
  if (!m) throw notAcceptable(requested);
  const minor = Number(m[1]);
  if (minor < INSPECTOR_MIN_MINOR || minor > INSPECTOR_MAX_MINOR) throw notAcceptable(requested);
  return minor;
}
