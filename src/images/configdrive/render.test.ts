import { describe, expect, it } from 'vitest';
import { configDriveFiles, renderConfigDrive } from './render.js';

const text = (m: Map<string, Uint8Array>, p: string) => Buffer.from(m.get(p) as Uint8Array).toString('utf8');

describe('configDriveFiles', () => {
  it('writes every file under both metadata versions, as openstacksdk does', () => {
    const files = configDriveFiles({ meta_data: { hostname: 'h' }, network_data: { links: [] }, vendor_data: { v: 1 }, user_data: '#cloud-config\n' });
    expect([...files.keys()].sort()).toEqual([
      'openstack/2012-08-10/meta_data.json',
      'openstack/2012-08-10/network_data.json',
      'openstack/2012-08-10/user_data',
      'openstack/2012-08-10/vendor_data2.json',
      'openstack/latest/meta_data.json',
      'openstack/latest/network_data.json',
      'openstack/latest/user_data',
      'openstack/latest/vendor_data2.json',
    ]);
    expect(text(files, 'openstack/latest/user_data')).toBe('#cloud-config\n');
    expect(JSON.parse(text(files, 'openstack/latest/vendor_data2.json'))).toEqual({ v: 1 });
  });

  it('fills uuid and name from the node unless meta_data has them (build_configdrive)', () => {
    const node = { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', name: 'node-1' };
    expect(JSON.parse(text(configDriveFiles({}, { node }), 'openstack/latest/meta_data.json'))).toEqual({ uuid: node.uuid, name: 'node-1' });
    const kept = configDriveFiles({ meta_data: { uuid: 'mine', name: 'other' } }, { node });
    expect(JSON.parse(text(kept, 'openstack/latest/meta_data.json'))).toEqual({ uuid: 'mine', name: 'other' });
    expect(JSON.parse(text(configDriveFiles({}, { node: { uuid: 'u', name: null } }), 'openstack/latest/meta_data.json'))).toEqual({ uuid: 'u' });
  });

  it('writes JSON user_data as JSON and leaves empty parts out', () => {
    const files = configDriveFiles({ user_data: { ignition: { version: '3.4.0' } }, network_data: {}, vendor_data: {} }, { versions: ['latest'] });
    expect([...files.keys()].sort()).toEqual(['openstack/latest/meta_data.json', 'openstack/latest/user_data']);
    expect(JSON.parse(text(files, 'openstack/latest/user_data'))).toEqual({ ignition: { version: '3.4.0' } });
    expect(text(files, 'openstack/latest/meta_data.json')).toBe('{}');
  });
});

describe('renderConfigDrive', () => {
  it('labels the image config-2 and holds the file bytes', () => {
    const iso = renderConfigDrive({ user_data: 'marker-0123456789' });
    expect(iso.subarray(16 * 2048 + 40, 16 * 2048 + 48).toString('latin1')).toBe('config-2');
    expect(iso.includes(Buffer.from('marker-0123456789'))).toBe(true);
  });
});
