/** `PUT …/management/inject_nmi`, `…/states/boot_mode` and `…/states/secure_boot` through app.inject with the FakeConductor. */
import { describe, expect, it } from 'vitest';
import { useTestApi, faultString as fault, LATEST, version as V } from '../app.test-support.js';

const t = useTestApi();

async function node(name: string, driver = 'fake-hardware') {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nodes', headers: LATEST, payload: { driver, name } });
  expect(res.statusCode).toBe(201);
  return res.json() as { uuid: string };
}

const put = (url: string, payload: unknown, headers: Record<string, string> = LATEST) =>
  t.app.inject({ method: 'PUT', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('PUT /v1/nodes/{node}/management/inject_nmi', () => {
  it('answers 204 and reaches the conductor, by UUID or name, with {} or no body', async () => {
    const n = await node('nmi-1');
    const res = await put(`/v1/nodes/${n.uuid}/management/inject_nmi`, {});
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await put('/v1/nodes/nmi-1/management/inject_nmi', undefined)).statusCode).toBe(204);
    expect(t.conductor.nmis.get(n.uuid)).toBe(2);
  });

  it('is not found before 1.29, for an unknown node, and refuses parameters', async () => {
    const n = await node('nmi-2');
    const old = await put(`/v1/nodes/${n.uuid}/management/inject_nmi`, {}, V('1.28'));
    expect(old.statusCode).toBe(404);
    expect((await put(`/v1/nodes/${n.uuid}/management/inject_nmi`, {}, V('1.29'))).statusCode).toBe(204);
    const missing = await put('/v1/nodes/no-such-node/management/inject_nmi', {});
    expect(missing.statusCode).toBe(404);
    expect(fault(missing.body)).toBe('Node no-such-node could not be found.');
    const extra = await put(`/v1/nodes/${n.uuid}/management/inject_nmi`, { now: true });
    expect(extra.statusCode).toBe(400);
    expect(fault(extra.body)).toContain("'now'");
    expect(t.conductor.nmis.get(n.uuid)).toBe(1);
  });

  it('renders UnsupportedDriverExtension as 400 in the error envelope', async () => {
    await node('nmi-mm', 'manual-management');
    const res = await put('/v1/nodes/nmi-mm/management/inject_nmi', {});
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ingot-error-code']).toBe('UnsupportedDriverExtension');
    expect(fault(res.body)).toBe('Driver manual-management does not support inject_nmi (disabled or not implemented).');
  });

  it('answers 405 to other methods', async () => {
    await node('nmi-405');
    const res = await t.app.inject({ method: 'GET', url: '/v1/nodes/nmi-405/management/inject_nmi', headers: LATEST });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('PUT');
  });
});

describe('PUT /v1/nodes/{node}/states/boot_mode', () => {
  it('accepts uefi and bios (202 with the states URL), and GET …/states shows the mode', async () => {
    const n = await node('bm-1');
    const res = await put('/v1/nodes/bm-1/states/boot_mode', { target: 'uefi' }, { ...LATEST, host: 'h' });
    expect(res.statusCode).toBe(202);
    expect(res.headers.location).toBe('http://h/v1/nodes/bm-1/states');
    expect((await t.app.inject({ url: `/v1/nodes/${n.uuid}/states`, headers: LATEST })).json()).toMatchObject({ boot_mode: 'uefi', secure_boot: null });
    expect((await put(`/v1/nodes/${n.uuid}/states/boot_mode`, { target: 'bios' }, V('1.76'))).statusCode).toBe(202);
    expect((await t.store.nodes.get(n.uuid)).boot_mode).toBe('bios');
  });

  it('is not found before 1.76 and refuses bad targets with 400', async () => {
    await node('bm-2');
    const old = await put('/v1/nodes/bm-2/states/boot_mode', { target: 'uefi' }, V('1.75'));
    expect(old.statusCode).toBe(404);
    expect(fault(old.body)).toBe('This endpoint is supported starting with the API version 1.76');
    const bad = await put('/v1/nodes/bm-2/states/boot_mode', { target: 'efi' });
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toBe('Invalid boot mode efi requested for node. Allowed boot modes are: bios, uefi');
    expect((await put('/v1/nodes/bm-2/states/boot_mode', {})).statusCode).toBe(400);
    expect((await put('/v1/nodes/bm-2/states/boot_mode', { target: 1 })).statusCode).toBe(400);
    expect((await put('/v1/nodes/bm-2/states/boot_mode', { target: 'uefi', now: 1 })).statusCode).toBe(400);
    expect((await t.store.nodes.get('bm-2')).boot_mode).toBeNull();
    expect((await put('/v1/nodes/nope/states/boot_mode', { target: 'uefi' })).statusCode).toBe(404);
  });

  it('answers 409 while the node is transitioning and 400 for a driver without boot modes', async () => {
    const n = await node('bm-3');
    await t.store.nodes.update(n.uuid, { provision_state: 'wait call-back' });
    const busy = await put('/v1/nodes/bm-3/states/boot_mode', { target: 'uefi' });
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['x-ingot-error-code']).toBe('InvalidState');
    expect(fault(busy.body)).toContain('transitioning');
    await node('bm-mm', 'manual-management');
    const mm = await put('/v1/nodes/bm-mm/states/boot_mode', { target: 'bios' });
    expect(mm.statusCode).toBe(400);
    expect(fault(mm.body)).toContain('does not support set_boot_mode');
  });
});

describe('PUT /v1/nodes/{node}/states/secure_boot', () => {
  it('is not found before 1.76, validates the target and says no driver supports it', async () => {
    await node('sb-1');
    expect((await put('/v1/nodes/sb-1/states/secure_boot', { target: true }, V('1.75'))).statusCode).toBe(404);
    const bad = await put('/v1/nodes/sb-1/states/secure_boot', { target: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(fault(bad.body)).toContain('Invalid secure_boot "maybe" requested for node');
    const res = await put('/v1/nodes/sb-1/states/secure_boot', { target: 'true' });
    expect(res.statusCode).toBe(400);
    expect(fault(res.body)).toBe('Driver fake-hardware does not support set_secure_boot_state (disabled or not implemented).');
    expect(t.conductor.calls).toContain('setSecureBoot:true');
  });
});
