import { describe, expect, it } from 'vitest';
import { runIngot, fakeIronicPerTest } from './fake-ironic.test-support.js';

const serve = fakeIronicPerTest();

describe('boot device, maintenance, validate', () => {
  it('sets and shows the boot device', async () => {
    const s = await serve((req) => {
      if (req.path.endsWith('/supported')) return { body: { supported_boot_devices: ['pxe', 'disk'] } };
      if (req.method === 'GET') return { body: { boot_device: 'pxe', persistent: true } };
      return { status: 204 };
    });
    await runIngot(['node', 'boot-device', 'set', 'n1', 'pxe', '--persistent'], { INGOT_URL: s.url });
    await runIngot(['node', 'boot-device', 'set', 'n1', 'disk'], { INGOT_URL: s.url });
    const shown = await runIngot(['node', 'boot-device', 'show', 'n1'], { INGOT_URL: s.url });
    const supported = await runIngot(['node', 'boot-device', 'show', 'n1', '--supported', '-f', 'json'], { INGOT_URL: s.url });
    expect(s.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/v1/nodes/n1/management/boot_device', { boot_device: 'pxe', persistent: true }],
      ['PUT', '/v1/nodes/n1/management/boot_device', { boot_device: 'disk', persistent: false }],
      ['GET', '/v1/nodes/n1/management/boot_device', undefined],
      ['GET', '/v1/nodes/n1/management/boot_device/supported', undefined],
    ]);
    expect(shown.stdout).toBe(
      '+-------------+-------+\n| Field       | Value |\n+-------------+-------+\n| boot_device | pxe   |\n| persistent  | True  |\n+-------------+-------+\n',
    );
    expect(JSON.parse(supported.stdout)).toEqual({ supported_boot_devices: ['pxe', 'disk'] });
  });

  it('sets maintenance with a reason and unsets it', async () => {
    const s = await serve(() => ({ status: 202 }));
    await runIngot(['node', 'maintenance', 'set', 'n1', '--reason', 'fan broken'], { INGOT_URL: s.url });
    await runIngot(['node', 'maintenance', 'unset', 'n1'], { INGOT_URL: s.url });
    expect(s.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['PUT', '/v1/nodes/n1/maintenance', { reason: 'fan broken' }],
      ['DELETE', '/v1/nodes/n1/maintenance', undefined],
    ]);
  });

  it('validate prints one row per interface, sorted', async () => {
    const s = await serve(() => ({
      body: { power: { result: true }, boot: { result: false, reason: 'Missing deploy_kernel' }, console: { result: null, reason: 'not supported' } },
    }));
    const r = await runIngot(['node', 'validate', 'n1'], { INGOT_URL: s.url });
    expect(r.stdout).toBe(
      [
        '+-----------+--------+-----------------------+',
        '| Interface | Result | Reason                |',
        '+-----------+--------+-----------------------+',
        '| boot      | False  | Missing deploy_kernel |',
        '| console   | None   | not supported         |',
        '| power     | True   | None                  |',
        '+-----------+--------+-----------------------+',
        '',
      ].join('\n'),
    );
  });
});

describe('history', () => {
  const events = [
    { uuid: 'e1', created_at: '2026-01-01T00:00:00Z', severity: 'INFO', event: 'available -> deploying (deploy)', duration: 0.25 },
    { uuid: 'e2', created_at: '2026-01-01T00:00:12Z', severity: 'INFO', event: 'deploying -> active (done)', duration: 12.34 },
  ];

  it('lists events with Ingot’s per-phase duration column, following pages', async () => {
    const s = await serve((req) =>
      req.query['marker'] ? { body: { history: [] } } : { body: { history: events, next: `http://h/v1/nodes/n1/history?limit=2&marker=e2` } },
    );
    const r = await runIngot(['node', 'history', 'list', 'n1'], { INGOT_URL: s.url });
    expect(s.requests.map((q) => [q.path, q.query])).toEqual([
      ['/v1/nodes/n1/history', {}],
      ['/v1/nodes/n1/history', { limit: '2', marker: 'e2' }],
    ]);
    expect(r.stdout).toBe(
      [
        '+------+----------------------+----------+---------------------------------+----------+',
        '| UUID | Created At           | Severity | Description                     | Duration |',
        '+------+----------------------+----------+---------------------------------+----------+',
        '| e1   | 2026-01-01T00:00:00Z | INFO     | available -> deploying (deploy) | 250 ms   |',
        '| e2   | 2026-01-01T00:00:12Z | INFO     | deploying -> active (done)      | 12.3 s   |',
        '+------+----------------------+----------+---------------------------------+----------+',
        '',
      ].join('\n'),
    );
    const json = await runIngot(['node', 'history', 'list', 'n1', '-f', 'json'], { INGOT_URL: s.url });
    expect(JSON.parse(json.stdout)[1]).toEqual({ uuid: 'e2', created_at: '2026-01-01T00:00:12Z', severity: 'INFO', event: 'deploying -> active (done)', duration: 12.34 });
  });

  it('omits the duration column when the server has none; --long asks for detail; get shows one event', async () => {
    const s = await serve((req) =>
      req.path.endsWith('/history') ? { body: { history: [{ uuid: 'e1', created_at: 't', severity: 'ERROR', event: 'x' }] } } : { body: { ...events[0], links: [] } },
    );
    const r = await runIngot(['node', 'history', 'list', 'n1', '--long'], { INGOT_URL: s.url });
    expect(s.requests[0]!.query).toEqual({ detail: 'true' });
    expect(r.stdout.split('\n')[1]).toBe('| UUID | Created At | Severity | Description | Event Type | Conductor | User |');
    const g = await runIngot(['node', 'history', 'get', 'n1', 'e1', '-f', 'json'], { INGOT_URL: s.url });
    expect(s.requests[1]!.path).toBe('/v1/nodes/n1/history/e1');
    expect(JSON.parse(g.stdout)).toEqual(events[0]);
  });
});
