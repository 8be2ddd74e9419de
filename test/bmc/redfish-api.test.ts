/**
 * The Redfish emulator through `inject()` and over a real socket: authentication and principal isolation,
 * sessions and their idle timeout, ETag/If-Match, Redfish error bodies, fault injection and the task
 * monitor of asynchronous actions.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildRedfishApp, type RedfishAppOptions } from '../../src/bmc/redfish/app.js';
import { startRedfishEmulator, type RunningRedfishEmulator } from '../../src/bmc/redfish/emulator.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import type { Machine } from '../../src/bmc/machine.js';
import { untilTimersPending } from '../support/fake-timers.js';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

function fleet(): Machine[] {
  return [
    simulatedMachine({ name: 'sim-0', profile: simulatedProfile(0), username: 'alice', password: 'a-secret' }),
    simulatedMachine({ name: 'sim-1', profile: simulatedProfile(1), username: 'alice', password: 'a-secret' }),
    simulatedMachine({ name: 'sim-2', profile: simulatedProfile(2), username: 'bob', password: 'b-secret' }),
  ];
}

const apps: FastifyInstance[] = [];
const emulators: RunningRedfishEmulator[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

function app(opts: Partial<RedfishAppOptions> & { machines?: Machine[] } = {}): { app: FastifyInstance; machines: Machine[] } {
  const machines = opts.machines ?? fleet();
  const a = buildRedfishApp({ ...opts, machines });
  apps.push(a);
  return { app: a, machines };
}

const ALICE = { authorization: basic('alice', 'a-secret') };
const BOB = { authorization: basic('bob', 'b-secret') };

describe('public resources and authentication', () => {
  it('serves /redfish and the service root without credentials', async () => {
    const { app: a } = app();
    const v = await a.inject({ method: 'GET', url: '/redfish' });
    expect(v.json()).toEqual({ v1: '/redfish/v1/' });
    const root = await a.inject({ method: 'GET', url: '/redfish/v1/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['odata-version']).toBe('4.0');
    const body = root.json();
    expect(body['@odata.id']).toBe('/redfish/v1');
    expect(body['@odata.type']).toMatch(/^#ServiceRoot\.v1_\d+_\d+\.ServiceRoot$/);
    expect(body.RedfishVersion).toMatch(/^1\./);
    expect(body.Links.Sessions['@odata.id']).toBe('/redfish/v1/SessionService/Sessions');
    expect(body.Systems['@odata.id']).toBe('/redfish/v1/Systems');
    expect(body.UUID).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 401 with WWW-Authenticate and a Redfish error without or with bad credentials', async () => {
    const { app: a } = app();
    for (const headers of [{}, { authorization: basic('alice', 'wrong') }, { 'x-auth-token': 'nope' }]) {
      const r = await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers });
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Basic/);
      expect(r.json().error.code).toMatch(/^Base\.1\.\d+\.GeneralError$/);
      expect(r.json().error['@Message.ExtendedInfo'][0].MessageId).toMatch(/NoValidSession$/);
    }
  });

  it('answers 405 with Allow for a method a resource does not support, 404 for unknown URIs', async () => {
    const { app: a } = app();
    const put = await a.inject({ method: 'PUT', url: '/redfish/v1/Systems/sim-0', headers: ALICE });
    expect(put.statusCode).toBe(405);
    expect(String(put.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    expect(put.json().error.code).toMatch(/GeneralError$/);
    const del = await a.inject({ method: 'DELETE', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('POST');
    const unknown = await a.inject({ method: 'GET', url: '/redfish/v1/Nowhere', headers: ALICE });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error['@Message.ExtendedInfo'][0].MessageArgs).toEqual(['/redfish/v1/Nowhere']);
  });

  it('lists only the principal’s machines and hides the others (404)', async () => {
    const { app: a } = app();
    const members = (h: Record<string, string>, url: string) => a.inject({ method: 'GET', url, headers: h }).then((r) => r.json().Members.map((m: { '@odata.id': string }) => m['@odata.id']));
    expect(await members(ALICE, '/redfish/v1/Systems')).toEqual(['/redfish/v1/Systems/sim-0', '/redfish/v1/Systems/sim-1']);
    expect(await members(BOB, '/redfish/v1/Systems')).toEqual(['/redfish/v1/Systems/sim-2']);
    expect(await members(BOB, '/redfish/v1/Managers')).toEqual(['/redfish/v1/Managers/sim-2-bmc']);
    expect(await members(BOB, '/redfish/v1/Chassis')).toEqual(['/redfish/v1/Chassis/sim-2']);
    for (const url of ['/redfish/v1/Systems/sim-0', '/redfish/v1/Systems/sim-0/Processors', '/redfish/v1/Managers/sim-0-bmc/VirtualMedia/Cd', '/redfish/v1/Chassis/sim-0']) {
      const r = await a.inject({ method: 'GET', url, headers: BOB });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error['@Message.ExtendedInfo'][0].MessageId).toMatch(/ResourceMissingAtURI$/);
    }
    const reset = await a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: BOB, payload: { ResetType: 'On' } });
    expect(reset.statusCode).toBe(404);
    expect(await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-2', headers: BOB }).then((r) => r.statusCode)).toBe(200);
  });

  it('reject_credentials answers 401 for that machine even with its right credentials', async () => {
    const { app: a, machines } = app();
    (machines[2] as Machine).faults.reject_credentials = true;
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: BOB })).statusCode).toBe(401);
    const login = await a.inject({ method: 'POST', url: '/redfish/v1/SessionService/Sessions', payload: { UserName: 'bob', Password: 'b-secret' } });
    expect(login.statusCode).toBe(401);
    // alice shares credentials between two machines: only the rejecting one disappears.
    (machines[0] as Machine).faults.reject_credentials = true;
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-0', headers: ALICE })).statusCode).toBe(401);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: ALICE })).json()['Members@odata.count']).toBe(1);
  });
});

describe('sessions', () => {
  it('opens a session (201, X-Auth-Token, Location), reads it and logs out', async () => {
    const { app: a } = app();
    const login = await a.inject({ method: 'POST', url: '/redfish/v1/SessionService/Sessions', payload: { UserName: 'alice', Password: 'a-secret' } });
    expect(login.statusCode).toBe(201);
    const token = login.headers['x-auth-token'] as string;
    const location = login.headers.location as string;
    expect(token).toMatch(/^[0-9a-f]{32,}$/);
    expect(location).toMatch(/^\/redfish\/v1\/SessionService\/Sessions\/\w+$/);
    expect(login.json().UserName).toBe('alice');
    expect(JSON.stringify(login.json())).not.toContain('a-secret');

    const h = { 'x-auth-token': token };
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: h })).json()['Members@odata.count']).toBe(2);
    expect((await a.inject({ method: 'GET', url: location, headers: h })).json().Id).toBe(location.split('/').pop());
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/SessionService/Sessions', headers: h })).json().Members).toEqual([{ '@odata.id': location }]);
    // Another principal cannot see or end it.
    expect((await a.inject({ method: 'GET', url: location, headers: BOB })).statusCode).toBe(404);
    expect((await a.inject({ method: 'DELETE', url: location, headers: BOB })).statusCode).toBe(404);

    expect((await a.inject({ method: 'DELETE', url: location, headers: h })).statusCode).toBe(204);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: h })).statusCode).toBe(401);
  });

  it('refuses a login with bad credentials or a body without UserName', async () => {
    const { app: a } = app();
    const bad = await a.inject({ method: 'POST', url: '/redfish/v1/SessionService/Sessions', payload: { UserName: 'alice', Password: 'x' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['x-auth-token']).toBeUndefined();
    const missing = await a.inject({ method: 'POST', url: '/redfish/v1/SessionService/Sessions', payload: { Password: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error['@Message.ExtendedInfo'][0].RelatedProperties).toEqual(['#/UserName']);
  });

  it('ends a session after the idle timeout, and using it keeps it alive', async () => {
    let now = 1_000_000;
    const { app: a } = app({ sessionTimeoutMs: 60_000, clock: { now: () => now } });
    const login = await a.inject({ method: 'POST', url: '/redfish/v1/SessionService/Sessions', payload: { UserName: 'alice', Password: 'a-secret' } });
    const h = { 'x-auth-token': login.headers['x-auth-token'] as string };
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/SessionService', headers: h })).json().SessionTimeout).toBe(60);
    now += 50_000;
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: h })).statusCode).toBe(200);
    now += 50_000; // 100 s after login, 50 s after last use
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: h })).statusCode).toBe(200);
    now += 60_001;
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems', headers: h })).statusCode).toBe(401);
  });
});

describe('systems', () => {
  it('renders the ComputerSystem from the machine and its profile', async () => {
    const { app: a, machines } = app();
    const m = machines[1] as Machine;
    const r = await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1', headers: ALICE });
    const s = r.json();
    expect(s['@odata.id']).toBe('/redfish/v1/Systems/sim-1');
    expect(s['@odata.context']).toBe('/redfish/v1/$metadata#ComputerSystem.ComputerSystem');
    expect(s.UUID).toBe(m.profile.system_uuid);
    expect(s.PowerState).toBe('Off');
    expect(s.ProcessorSummary.LogicalProcessorCount).toBe(m.profile.cpu.count);
    expect(s.MemorySummary.TotalSystemMemoryGiB).toBe(m.profile.memory_mib / 1024);
    expect(s.Boot.BootSourceOverrideMode).toBe('UEFI');
    expect(s.Links.ManagedBy).toEqual([{ '@odata.id': '/redfish/v1/Managers/sim-1-bmc' }]);
    const drive = (await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1/Storage/1/Drives/1', headers: ALICE })).json();
    expect(drive.CapacityBytes).toBe(m.profile.disks[1]?.size_bytes);
    expect(drive.MediaType).toBe('SSD');
    const nic = (await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1/EthernetInterfaces/eth0', headers: ALICE })).json();
    expect(nic.MACAddress).toBe(m.profile.nics[0]?.mac);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1/Processors/CPU9', headers: ALICE })).statusCode).toBe(404);
  });

  it('gives an ETag that changes with the state; a stale If-Match gets 412, none is accepted', async () => {
    const { app: a, machines } = app();
    const m = machines[0] as Machine;
    const url = '/redfish/v1/Systems/sim-0';
    const first = (await a.inject({ method: 'GET', url, headers: ALICE })).headers.etag as string;
    expect(first).toMatch(/^"[0-9a-f]+"$/);
    await m.act('on');
    const second = (await a.inject({ method: 'GET', url, headers: ALICE })).headers.etag as string;
    expect(second).not.toBe(first);

    const patch = { Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Continuous' } };
    const stale = await a.inject({ method: 'PATCH', url, headers: { ...ALICE, 'if-match': first }, payload: patch });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error['@Message.ExtendedInfo'][0].MessageId).toMatch(/PreconditionFailed$/);
    expect(m.bootOverride().device).toBe('none');

    const fresh = await a.inject({ method: 'PATCH', url, headers: { ...ALICE, 'if-match': `W/${second}` }, payload: patch });
    expect(fresh.statusCode).toBe(204);
    expect(m.bootOverride()).toMatchObject({ device: 'pxe', persistence: 'continuous' });

    const none = await a.inject({ method: 'PATCH', url, headers: ALICE, payload: { Boot: { BootSourceOverrideEnabled: 'Disabled' } } });
    expect(none.statusCode).toBe(204);
    expect(m.bootOverride().device).toBe('none');
  });

  it('refuses bad boot values with 400 naming the property', async () => {
    const { app: a, machines } = app();
    const url = '/redfish/v1/Systems/sim-0';
    const cases: [unknown, string][] = [
      [{ Boot: { BootSourceOverrideTarget: 'Floppy' } }, '#/Boot/BootSourceOverrideTarget'],
      [{ Boot: { BootSourceOverrideEnabled: 'Always' } }, '#/Boot/BootSourceOverrideEnabled'],
      [{ Boot: { BootSourceOverrideMode: 'BIOS' } }, '#/Boot/BootSourceOverrideMode'],
      [{ Boot: { Colour: 'red' } }, '#/Boot/Colour'],
      [{ PowerState: 'On' }, '#/PowerState'],
    ];
    for (const [payload, pointer] of cases) {
      const r = await a.inject({ method: 'PATCH', url, headers: ALICE, payload: payload as object });
      expect(r.statusCode, pointer).toBe(400);
      expect(r.json().error['@Message.ExtendedInfo'][0].RelatedProperties).toEqual([pointer]);
    }
    const broken = await a.inject({ method: 'PATCH', url, headers: { ...ALICE, 'content-type': 'application/json' }, payload: '{"Boot":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error['@Message.ExtendedInfo'][0].MessageId).toMatch(/MalformedJSON$/);
    expect((machines[0] as Machine).bootOverride().device).toBe('none');
  });

  it('maps every ResetType to a machine action', async () => {
    const { app: a, machines } = app();
    const m = machines[0] as Machine;
    const acts: string[] = [];
    const act = m.act.bind(m);
    m.act = async (action) => {
      acts.push(action);
      await act(action);
    };
    const reset = (ResetType: unknown) => a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE, payload: { ResetType } });
    for (const t of ['On', 'ForceOff', 'ForceOn', 'GracefulShutdown', 'PushPowerButton', 'PushPowerButton', 'GracefulRestart', 'ForceRestart', 'PowerCycle', 'Nmi']) {
      expect((await reset(t)).statusCode, t).toBe(204);
    }
    expect(acts).toEqual(['on', 'off', 'on', 'soft-off', 'on', 'soft-off', 'reset', 'reset', 'cycle', 'nmi']);
    const bad = await reset('Explode');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error['@Message.ExtendedInfo'][0].RelatedProperties).toEqual(['#/ResetType']);
    expect((await a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE })).statusCode).toBe(400);
  });
});

describe('virtual media', () => {
  it('inserts and ejects the CD on the machine and keeps the Floppy in the emulator, by action or PATCH', async () => {
    const { app: a, machines } = app();
    const m = machines[0] as Machine;
    const cd = '/redfish/v1/Managers/sim-0-bmc/VirtualMedia/Cd';
    const ins = await a.inject({ method: 'POST', url: `${cd}/Actions/VirtualMedia.InsertMedia`, headers: ALICE, payload: { Image: 'http://10.0.0.1/boot.iso', WriteProtected: true } });
    expect(ins.statusCode).toBe(204);
    expect(m.virtualMedia()).toEqual({ image: 'http://10.0.0.1/boot.iso', inserted: true, write_protected: true });
    const shown = (await a.inject({ method: 'GET', url: cd, headers: ALICE })).json();
    expect(shown).toMatchObject({ Id: 'Cd', Image: 'http://10.0.0.1/boot.iso', ImageName: 'boot.iso', Inserted: true, MediaTypes: ['CD', 'DVD'] });
    expect((await a.inject({ method: 'POST', url: `${cd}/Actions/VirtualMedia.EjectMedia`, headers: ALICE })).statusCode).toBe(204);
    expect(m.virtualMedia().inserted).toBe(false);

    const floppy = '/redfish/v1/Managers/sim-0-bmc/VirtualMedia/Floppy';
    expect((await a.inject({ method: 'PATCH', url: floppy, headers: ALICE, payload: { Image: 'http://10.0.0.1/cfg.img', Inserted: true } })).statusCode).toBe(204);
    expect((await a.inject({ method: 'GET', url: floppy, headers: ALICE })).json()).toMatchObject({ Inserted: true, Image: 'http://10.0.0.1/cfg.img' });
    expect(m.virtualMedia().inserted).toBe(false);
    expect((await a.inject({ method: 'PATCH', url: floppy, headers: ALICE, payload: { Image: null, Inserted: false } })).statusCode).toBe(204);
    expect((await a.inject({ method: 'GET', url: floppy, headers: ALICE })).json()).toMatchObject({ Inserted: false, Image: null });

    const noImage = await a.inject({ method: 'POST', url: `${cd}/Actions/VirtualMedia.InsertMedia`, headers: ALICE, payload: {} });
    expect(noImage.statusCode).toBe(400);
    expect(noImage.json().error['@Message.ExtendedInfo'][0].RelatedProperties).toEqual(['#/Image']);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Managers/sim-0-bmc/VirtualMedia/Usb', headers: ALICE })).statusCode).toBe(404);
  });
});

describe('faults', () => {
  it('error_rate answers 500 with a Redfish error body; latency_ms delays that machine only', async () => {
    const { app: a, machines } = app();
    (machines[0] as Machine).faults.error_rate = 1;
    const r = await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-0', headers: ALICE });
    expect(r.statusCode).toBe(500);
    expect(r.json().error['@Message.ExtendedInfo'][0].MessageId).toMatch(/InternalError$/);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1', headers: ALICE })).statusCode).toBe(200);

    (machines[0] as Machine).faults.error_rate = 0;
    (machines[0] as Machine).faults.latency_ms = 150;
    // On a virtual clock: sim-0's answer waits exactly its 150 ms; sim-1 answers with no time passing.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let slow: number | undefined;
      const pending = a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-0', headers: ALICE }).then((r) => (slow = r.statusCode));
      await untilTimersPending(1);
      expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-1', headers: ALICE })).statusCode).toBe(200);
      await vi.advanceTimersByTimeAsync(149);
      expect(slow).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(slow).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hang_power: the reset is accepted and the power never changes', async () => {
    const { app: a, machines } = app();
    (machines[0] as Machine).faults.hang_power = true;
    const r = await a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE, payload: { ResetType: 'On' } });
    expect(r.statusCode).toBe(204);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/Systems/sim-0', headers: ALICE })).json().PowerState).toBe('Off');
  });
});

describe('asynchronous actions', () => {
  it('answers 202 with a task monitor that reports Running, then Completed once the action is done', async () => {
    // The task's length runs on the virtual clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { app: a, machines } = app({ asyncActions: true, taskDurationMs: 150 });
    const m = machines[0] as Machine;
    const r = await a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE, payload: { ResetType: 'On' } });
    expect(r.statusCode).toBe(202);
    const monitor = r.headers.location as string;
    expect(monitor).toMatch(/^\/redfish\/v1\/TaskService\/Tasks\/\w+$/);
    expect(r.json().TaskState).toBe('Running');
    const running = await a.inject({ method: 'GET', url: monitor, headers: ALICE });
    expect(running.statusCode).toBe(202);
    expect(running.json().TaskState).toBe('Running');
    // Another principal cannot follow it.
    expect((await a.inject({ method: 'GET', url: monitor, headers: BOB })).statusCode).toBe(404);

    await vi.advanceTimersByTimeAsync(149);
    expect((await a.inject({ method: 'GET', url: monitor, headers: ALICE })).json().TaskState).toBe('Running');
    await vi.advanceTimersByTimeAsync(1);
    const done = await a.inject({ method: 'GET', url: monitor, headers: ALICE });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ TaskState: 'Completed', TaskStatus: 'OK', PercentComplete: 100 });
    expect(await m.power()).toBe('on');
    const tasks = (await a.inject({ method: 'GET', url: '/redfish/v1/TaskService/Tasks', headers: ALICE })).json();
    expect(tasks.Members).toEqual([{ '@odata.id': monitor }]);
    expect((await a.inject({ method: 'GET', url: '/redfish/v1/TaskService', headers: ALICE })).json().Tasks['@odata.id']).toBe('/redfish/v1/TaskService/Tasks');
  });

  it('can make only virtual media asynchronous; a failing action ends the task in Exception', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { app: a, machines } = app({ asyncActions: { virtualMedia: true }, taskDurationMs: 10 });
    const m = machines[0] as Machine;
    const reset = await a.inject({ method: 'POST', url: '/redfish/v1/Systems/sim-0/Actions/ComputerSystem.Reset', headers: ALICE, payload: { ResetType: 'On' } });
    expect(reset.statusCode).toBe(204);
    m.insertMedia = () => {
      throw new Error('drive jammed');
    };
    const r = await a.inject({ method: 'POST', url: '/redfish/v1/Managers/sim-0-bmc/VirtualMedia/Cd/Actions/VirtualMedia.InsertMedia', headers: ALICE, payload: { Image: 'http://x/y.iso' } });
    expect(r.statusCode).toBe(202);
    await vi.advanceTimersByTimeAsync(10);
    const done = (await a.inject({ method: 'GET', url: r.headers.location as string, headers: ALICE })).json();
    expect(done).toMatchObject({ TaskState: 'Exception', TaskStatus: 'Critical' });
    expect(JSON.stringify(done.Messages)).toContain('drive jammed');
  });
});

describe('startRedfishEmulator', () => {
  it('listens on an ephemeral port over HTTP and closes (also by its signal)', async () => {
    const ac = new AbortController();
    const e = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: fleet(), signal: ac.signal });
    emulators.push(e);
    expect(e.url).toBe(`http://127.0.0.1:${e.port}`);
    expect(e.certificate).toBeUndefined();
    const r = await fetch(`${e.url}/redfish/v1/Systems/sim-2`, { headers: BOB });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"/);
    ac.abort();
    await e.close();
    await expect(fetch(`${e.url}/redfish/v1/`)).rejects.toThrow();
  });

  it('closes promptly while a request waits out injected latency', async () => {
    const machines = fleet();
    // Longer than the test may take: a close that waited for it would time the test out.
    (machines[2] as Machine).faults.latency_ms = 3_600_000;
    const log: string[] = [];
    const e = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines, logger: pino({ level: 'info' }, { write: (line: string) => void log.push(line) }) });
    emulators.push(e);
    const pending = fetch(`${e.url}/redfish/v1/Systems/sim-2`, { headers: BOB }).then((r) => r.status, () => 'failed');
    await vi.waitUntil(() => log.some((l) => l.includes('incoming request') && l.includes('/Systems/sim-2')), { timeout: 10_000 });
    await e.close();
    expect(await pending).toBe(503);
  });

  it('serves HTTPS with a self-signed certificate it returns', async () => {
    const e = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: fleet(), tls: 'self-signed' });
    emulators.push(e);
    expect(e.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(e.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const { request } = await import('node:https');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${e.url}/redfish/v1/`, { ca: e.certificate }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(body).Id).toBe('RootService');
  });
});
