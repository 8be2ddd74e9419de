import { describe, expect, it } from 'vitest';
import { IngotError } from '../shared/errors.js';
import { MAX_MINOR, parseVersion, versionHeaders } from './microversion.js';

describe('parseVersion', () => {
  it('defaults to 1.1 and reads either header', () => {
    expect(parseVersion({})).toBe(1);
    expect(parseVersion({ 'x-openstack-ironic-api-version': '1.42' })).toBe(42);
    expect(parseVersion({ 'openstack-api-version': 'compute 2.1, baremetal 1.60' })).toBe(60);
    expect(parseVersion({ 'x-openstack-ironic-api-version': 'LATEST' })).toBe(MAX_MINOR);
  });

  it.each(['1.0', `1.${MAX_MINOR + 1}`, '2.1', '1', 'one.two', '1.2.3'])('refuses %s with NotAcceptable', (v) => {
    let err: unknown;
    try {
      parseVersion({ 'x-openstack-ironic-api-version': v });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IngotError);
    expect((err as IngotError).status).toBe(406);
  });

  it('builds the response headers', () => {
    expect(versionHeaders(50)).toMatchObject({
      'x-openstack-ironic-api-version': '1.50',
      'openstack-api-version': 'baremetal 1.50',
      'x-openstack-ironic-api-minimum-version': '1.1',
    });
  });
});
