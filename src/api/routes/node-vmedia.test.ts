/**
 * `GET`/`POST`/`DELETE /v1/nodes/{node}/vmedia` through app.inject on the real conductor with fake-hardware
 * (whose management keeps its virtual media in driver_internal_info `fake_vmedia`) and manual-management.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApiOnConductor, waitForNode, type ApiOnConductor, type TestConductor } from '../../../test/support/api-on-conductor.js';
import type { Node } from '../../domain/node.js';
import { faultString as fault, LATEST, version as V } from '../app.test-support.js';
import { checkAttachBody, parseDeviceTypes } from './node-vmedia.js';

let api: ApiOnConductor;
let t: TestConductor;
let app: FastifyInstance;

async function start(config: Parameters<typeof startApiOnConductor>[0] = {}) {
  api = await startApiOnConductor({ enabled_hardware_types: ['fake-hardware', 'manual-management'], ...config });
  ({ t, app } = api);
}

beforeEach(async () => start());
afterEach(async () => api?.close());

const ISO = 'http://10.0.0.1/images/config.iso';

async function node(name: string, driver = 'fake-hardware', extra: Record<string, unknown> = {}): Promise<Node> {
  const res = await app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver, name, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return t.store.nodes.get(name);
}

const attach = (ident: string, payload: unknown, headers = LATEST) =>
  app.inject({ method: 'POST', url: `/v1/nodes/${ident}/vmedia`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const detach = (ident: string, query = '', headers = LATEST) => app.inject({ method: 'DELETE', url: `/v1/nodes/${ident}/vmedia${query}`, headers });
const list = (ident: string, headers = LATEST) => app.inject({ method: 'GET', url: `/v1/nodes/${ident}/vmedia`, headers });
/** The node once the conductor released it (the worker finished). */
const settled = (ident: string) => waitForNode(t.store, ident, (n) => n.reservation === null);

describe('POST /v1/nodes/{node}/vmedia', () => {
  it('answers 204, and the worker inserts the image: GET lists it inserted in the CD', async () => {
    const n = await node('vm-1');
    const res = await attach('vm-1', { device_type: 'cdrom', image_url: ISO });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const after = await settled('vm-1');
    expect(after.driver_internal_info['fake_vmedia']).toEqual({ cdrom: ISO });
    expect(after.last_error).toBeNull();
    const got = await list(n.uuid);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual([
      { media_types: ['CD', 'DVD'], inserted: true, image: ISO },
      { media_types: ['Floppy'], inserted: false, image: null },
      { media_types: ['USBStick'], inserted: false, image: null },
    ]);
    // The same image again is fine; http and local sources hand the URL over as it is.
    expect((await attach(n.uuid, { device_type: 'cdrom', image_url: ISO, image_download_source: 'http' })).statusCode).toBe(204);
    expect((await attach(n.uuid, { device_type: 'disk', image_url: 'HTTPS://10.0.0.1/usb.img', image_download_source: 'local' })).statusCode).toBe(204);
    expect((await settled(n.uuid)).driver_internal_info['fake_vmedia']).toEqual({ cdrom: ISO, disk: 'HTTPS://10.0.0.1/usb.img' });
  });

  it('is not found before 1.89 (any method) and GET before 1.93', async () => {
    await node('vm-ver');
    for (const res of [await attach('vm-ver', { device_type: 'cdrom', image_url: ISO }, V('1.88')), await detach('vm-ver', '', V('1.88')), await list('vm-ver', V('1.88'))]) {
      expect(res.statusCode).toBe(404);
      expect(fault(res.body)).toBe('The resource could not be found.');
    }
    expect((await list('vm-ver', V('1.92'))).statusCode).toBe(404);
    expect((await attach('vm-ver', { device_type: 'cdrom', image_url: ISO }, V('1.89'))).statusCode).toBe(204);
    await settled('vm-ver');
    expect((await list('vm-ver', V('1.93'))).statusCode).toBe(200);
  });

  it('validates the body as Ironic’s schema does, before looking at the node', async () => {
    const n = await node('vm-bad');
    const cases: Array<[unknown, string]> = [
      [{ image_url: ISO }, "Schema error for vmedia: 'device_type' is a required property  Failed validating 'required' in schema"],
      [{ device_type: 'cdrom' }, "Schema error for vmedia: 'image_url' is a required property  Failed validating 'required' in schema"],
      [{ device_type: 'usb', image_url: ISO }, "Schema error for vmedia: 'usb' is not one of ['disk', 'cdrom', 'floppy']  Failed validating 'enum' in schema['properties']['device_type']"],
      [{ device_type: 'cdrom', image_url: 7 }, "Schema error for vmedia: 7 is not of type 'string'  Failed validating 'type' in schema['properties']['image_url']"],
      [{ device_type: 'cdrom', image_url: ISO, image_download_source: 'glance' }, "Schema error for vmedia: 'glance' is not one of ['http', 'local', 'swift']  Failed validating 'enum' in schema['properties']['image_download_source']"],
      [{ device_type: 'cdrom', image_url: ISO, username: 'u' }, "Schema error for vmedia: Additional properties are not allowed ('username' was unexpected)  Failed validating 'additionalProperties' in schema"],
      [[ISO], "Schema error for vmedia: ['http://10.0.0.1/images/config.iso'] is not of type 'object'  Failed validating 'type' in schema"],
      [{ device_type: 'cdrom', image_url: 'ftp://10.0.0.1/a.iso' }, 'Unsupported or missing URL scheme: ftp'],
      [{ device_type: 'cdrom', image_url: '/srv/a.iso' }, 'Unsupported or missing URL scheme: '],
    ];
    for (const [payload, message] of cases) {
      const res = await attach(n.uuid, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fault(res.body)).toBe(message);
    }
    expect((await attach('no-such-node', { device_type: 'usb', image_url: ISO })).statusCode).toBe(400);
    const missing = await attach('no-such-node', { device_type: 'cdrom', image_url: 'nfs://10.0.0.1/share/a.iso' });
    expect(missing.statusCode).toBe(404);
    expect(fault(missing.body)).toBe('Node no-such-node could not be found.');
    const after = await t.store.nodes.get(n.uuid);
    expect(after.driver_internal_info['fake_vmedia']).toBeUndefined();
    expect(after.reservation).toBeNull();
  });

  it('writes a failure of the worker to last_error and the history, and clears it at the next request', async () => {
    const n = await node('vm-busy');
    expect((await attach(n.uuid, { device_type: 'cdrom', image_url: ISO })).statusCode).toBe(204);
    await settled(n.uuid);
    expect((await attach(n.uuid, { device_type: 'cdrom', image_url: 'http://10.0.0.1/other.iso' })).statusCode).toBe(204);
    const failed = await settled(n.uuid);
    expect(failed.last_error).toBe(`Could not attach device cdrom to node ${n.uuid}: No suitable virtual media device found (the fake cdrom holds ${ISO}).`);
    expect(failed.driver_internal_info['fake_vmedia']).toEqual({ cdrom: ISO });
    const events = (await t.store.history.list(n.id, { limit: 10 })).map((e) => [e.event_type, e.severity, e.event]);
    expect(events).toContainEqual(['management', 'ERROR', failed.last_error]);

    expect((await attach(n.uuid, { device_type: 'floppy', image_url: 'smb://10.0.0.1/share/f.img', image_download_source: 'swift' })).statusCode).toBe(204);
    expect((await settled(n.uuid)).last_error).toContain(`Could not attach device floppy to node ${n.uuid}: image_download_source swift needs an Object Storage`);
    expect((await attach(n.uuid, { device_type: 'floppy', image_url: 'cifs://10.0.0.1/share/f.img' })).statusCode).toBe(204);
    const ok = await settled(n.uuid);
    expect(ok.last_error).toBeNull();
    expect(ok.driver_internal_info['fake_vmedia']).toEqual({ cdrom: ISO, floppy: 'cifs://10.0.0.1/share/f.img' });
  });

  it('refuses a locked node (409), a node in maintenance for a power failure, and a driver without virtual media', async () => {
    const n = await node('vm-lock');
    await t.store.nodes.reserve(n.uuid, 'other-host');
    const locked = await attach(n.uuid, { device_type: 'cdrom', image_url: ISO });
    expect(locked.statusCode).toBe(409);
    expect(locked.headers['x-ingot-error-code']).toBe('NodeLocked');
    expect((await detach(n.uuid)).statusCode).toBe(409);
    expect((await list(n.uuid)).statusCode).toBe(200); // a shared lock reads through
    await t.store.nodes.release(n.uuid, 'other-host');

    await t.store.nodes.update(n.uuid, { maintenance: true, maintenance_reason: 'BMC gone', fault: 'power failure' });
    const pf = await attach(n.uuid, { device_type: 'cdrom', image_url: ISO });
    expect(pf.statusCode).toBe(400);
    expect(fault(pf.body)).toBe(`Unable to attach virtual media for node ${n.uuid} due to power failure state`);
    expect(fault((await detach(n.uuid)).body)).toBe(`Unable to detach virtual media for node ${n.uuid} due to power failure state`);
    expect((await t.store.nodes.get(n.uuid)).reservation).toBeNull();

    await node('vm-mm', 'manual-management');
    for (const [res, ext] of [[await attach('vm-mm', { device_type: 'cdrom', image_url: ISO }), 'attach_virtual_media'], [await detach('vm-mm'), 'detach_virtual_media'], [await list('vm-mm'), 'get_virtual_media']] as const) {
      expect(res.statusCode).toBe(400);
      expect(res.headers['x-ingot-error-code']).toBe('UnsupportedDriverExtension');
      expect(fault(res.body)).toBe(`Driver manual-management does not support ${ext} (disabled or not implemented).`);
    }
    expect((await t.store.nodes.get('vm-mm')).reservation).toBeNull();
  });

  it('answers 405 to other methods', async () => {
    await node('vm-405');
    const res = await app.inject({ method: 'PUT', url: '/v1/nodes/vm-405/vmedia', headers: LATEST, payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST, DELETE');
  });
});

describe('POST …/vmedia with a full worker pool', () => {
  it('answers 503 and changes nothing', async () => {
    await api.close();
    await start({ workers: 1 });
    await node('slow', 'fake-hardware', { driver_info: { fake_management_delay: 1 } });
    const other = await node('other');
    await t.store.nodes.update(other.uuid, { last_error: 'old' });
    expect((await attach('slow', { device_type: 'cdrom', image_url: ISO })).statusCode).toBe(204);
    const refused = await attach('other', { device_type: 'cdrom', image_url: ISO });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['x-ingot-error-code']).toBe('NoFreeConductorWorkers');
    expect(await t.store.nodes.get('other')).toMatchObject({ reservation: null, last_error: 'old' });
    await waitForNode(t.store, 'slow', (n) => n.reservation === null, 5000);
  });
});

describe('DELETE /v1/nodes/{node}/vmedia', () => {
  it('detaches the listed device types (any case, duplicates ignored), or every device', async () => {
    const n = await node('vm-del');
    for (const [type, url] of [['cdrom', ISO], ['floppy', 'http://10.0.0.1/f.img'], ['disk', 'http://10.0.0.1/u.img']] as const) {
      expect((await attach(n.uuid, { device_type: type, image_url: url })).statusCode).toBe(204);
      await settled(n.uuid);
    }
    const res = await detach(n.uuid, '?device_types=CDROM,%20floppy,cdrom');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await settled(n.uuid)).driver_internal_info['fake_vmedia']).toEqual({ disk: 'http://10.0.0.1/u.img' });
    expect((await detach(n.uuid)).statusCode).toBe(204);
    const after = await settled(n.uuid);
    expect(after.driver_internal_info['fake_vmedia']).toBeUndefined();
    expect(after.last_error).toBeNull();
    expect((await list(n.uuid)).json()).toEqual([
      { media_types: ['CD', 'DVD'], inserted: false, image: null },
      { media_types: ['Floppy'], inserted: false, image: null },
      { media_types: ['USBStick'], inserted: false, image: null },
    ]);
  });

  it('refuses unknown device types with Ironic’s message', async () => {
    await node('vm-del-bad');
    const res = await detach('vm-del-bad', '?device_types=cdrom,usb,dvd');
    expect(res.statusCode).toBe(400);
    expect(fault(res.body)).toBe('Invalid device type(s) usb, dvd (valid are disk, cdrom, floppy)');
    expect((await detach('nope')).statusCode).toBe(404);
  });
});

describe('vmedia request parsing', () => {
  it('defaults image_download_source to local and reads the URL scheme as Python’s urlparse', () => {
    expect(checkAttachBody({ device_type: 'floppy', image_url: 'Nfs://h/x.img' })).toEqual({ device_type: 'floppy', image_url: 'Nfs://h/x.img', image_download_source: 'local' });
    expect(() => checkAttachBody({ device_type: 'floppy', image_url: 'x:y' })).toThrow('Unsupported or missing URL scheme: x');
    expect(() => checkAttachBody(undefined)).toThrow('Missing argument: "vmedia"');
  });

  it('splits device_types as args.string_list does', () => {
    expect(parseDeviceTypes(undefined)).toBeUndefined();
    expect(parseDeviceTypes('')).toEqual([]);
    expect(parseDeviceTypes(['disk', 'Floppy , disk'])).toEqual(['disk', 'floppy']);
  });
});
