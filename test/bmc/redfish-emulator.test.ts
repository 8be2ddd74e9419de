/**
 * The Redfish emulator against a real peer: Debian's python3-sushy (the library Ironic's redfish driver
 * is built on) logs in with Basic and session auth, reads systems and their hardware, resets them, sets
 * boot overrides and inserts virtual media; each change is checked on the machine behind the emulator.
 * Also TLS (self-signed, verified against the returned certificate), wrong credentials, injected server
 * errors and asynchronous actions followed through sushy's task monitor.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedfishEmulator, type RedfishEmulatorOptions, type RunningRedfishEmulator } from '../../src/bmc/redfish/emulator.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';
import type { Machine } from '../../src/bmc/machine.js';
import { requireSushy, SushyPeer } from './fixtures/sushy-peer.js';

const SYS = '/redfish/v1/Systems';

function fleet(): Machine[] {
  return [
    simulatedMachine({ name: 'sim-0', profile: simulatedProfile(0), username: 'alice', password: 'a-secret' }),
    simulatedMachine({ name: 'sim-1', profile: simulatedProfile(1), username: 'alice', password: 'a-secret' }),
    simulatedMachine({ name: 'sim-2', profile: simulatedProfile(2), username: 'bob', password: 'b-secret' }),
  ];
}

/** One emulator and one sushy process for a scenario group; both end in afterAll. */
function scenario(opts: Partial<RedfishEmulatorOptions> = {}) {
  const s = { machines: fleet(), emulator: undefined as unknown as RunningRedfishEmulator, peer: undefined as unknown as SushyPeer };
  beforeAll(async () => {
    requireSushy();
    s.emulator = await startRedfishEmulator({ host: '127.0.0.1', port: 0, machines: s.machines, ...opts });
    s.peer = new SushyPeer();
  });
  afterAll(async () => {
    await s.peer?.close();
    await s.emulator?.close();
  });
  return s;
}

const machine = (s: { machines: Machine[] }, name: string) => s.machines.find((m) => m.name === name) as Machine;

describe('sushy with basic auth', () => {
  const s = scenario();

  it('connects and lists only the principal’s systems', async () => {
    const c = await s.peer.ok<{ session: boolean; redfish_version: string }>({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'basic' });
    expect(c.session).toBe(false);
    expect(c.redfish_version).toMatch(/^1\./);
    expect(await s.peer.ok({ op: 'systems' })).toEqual([`${SYS}/sim-0`, `${SYS}/sim-1`]);
  });

  it('reads a system as sushy parses it', async () => {
    const m = machine(s, 'sim-1');
    const sys = await s.peer.ok<Record<string, unknown>>({ op: 'system', path: `${SYS}/sim-1` });
    expect(sys).toMatchObject({
      identity: 'sim-1',
      uuid: m.profile.system_uuid,
      manufacturer: m.profile.manufacturer,
      model: m.profile.model,
      serial_number: m.profile.serial_number,
      power_state: 'Off',
      boot: { target: 'None', enabled: 'Disabled', mode: 'UEFI', allowed: ['BiosSetup', 'Cd', 'Hdd', 'None', 'Pxe'] },
      managers: ['sim-1-bmc'],
      chassis: ['sim-1'],
    });
    expect(sys.allowed_resets).toEqual(['ForceOff', 'ForceOn', 'ForceRestart', 'GracefulRestart', 'GracefulShutdown', 'Nmi', 'On', 'PowerCycle', 'PushPowerButton']);
  });

  it('resets the machine: On, ForceOff, GracefulRestart, PushPowerButton', async () => {
    const m = machine(s, 'sim-0');
    const boots: string[] = [];
    const stop = m.onBoot((e) => boots.push(e.device));
    try {
      await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'On' });
      expect(await m.power()).toBe('on');
      expect((await s.peer.ok<{ power_state: string }>({ op: 'system', path: `${SYS}/sim-0` })).power_state).toBe('On');
      await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'ForceOff' });
      expect(await m.power()).toBe('off');
      await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'PushPowerButton' });
      expect(await m.power()).toBe('on');
      await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'GracefulRestart' });
      expect(await m.power()).toBe('on');
      expect(boots).toEqual(['disk', 'disk', 'disk']);
      await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'GracefulShutdown' });
      expect(await m.power()).toBe('off');
    } finally {
      stop();
    }
  });

  it('sets boot options (pxe, once, uefi) with sushy’s ETag handling, and the next boot consumes them', async () => {
    const m = machine(s, 'sim-0');
    await s.peer.ok({ op: 'boot', path: `${SYS}/sim-0`, target: 'Pxe', enabled: 'Once', mode: 'UEFI' });
    expect(m.bootOverride()).toEqual({ device: 'pxe', persistence: 'once', mode: 'uefi' });
    expect((await s.peer.ok<{ boot: unknown }>({ op: 'system', path: `${SYS}/sim-0` })).boot).toMatchObject({ target: 'Pxe', enabled: 'Once', mode: 'UEFI' });
    const boots: string[] = [];
    const stop = m.onBoot((e) => boots.push(e.device));
    await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'On' });
    stop();
    expect(boots).toEqual(['pxe']);
    expect(m.bootOverride().device).toBe('none');
    await s.peer.ok({ op: 'boot', path: `${SYS}/sim-0`, target: 'Cd', enabled: 'Continuous', mode: 'Legacy' });
    expect(m.bootOverride()).toEqual({ device: 'cdrom', persistence: 'continuous', mode: 'legacy' });
    await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'ForceOff' });
  });

  it('reads processors, memory, NICs and disks that match the machine’s profile', async () => {
    for (const name of ['sim-0', 'sim-1']) {
      const p = machine(s, name).profile;
      const hw = await s.peer.ok<Record<string, unknown>>({ op: 'hardware', path: `${SYS}/${name}` });
      const sizes = p.disks.map((d) => d.size_bytes).sort((a, b) => a - b);
      expect(hw).toMatchObject({ cpu_count: p.cpu.count, cpu_arch: 'x86', memory_gib: p.memory_mib / 1024, simple_storage_sizes: sizes, storage_sizes: sizes, volume_sizes: [] });
      expect(hw.nics).toEqual(p.nics.map((n) => ({ mac: n.mac, speed_mbps: n.speed_mbps, state: 'Enabled' })).sort((a, b) => a.mac.localeCompare(b.mac)));
      expect(hw.drives).toEqual(p.disks.map((d) => ({ capacity_bytes: d.size_bytes, media_type: d.rotational ? 'HDD' : 'SSD', model: d.model, serial_number: d.serial })));
    }
  });

  it('inserts and ejects virtual media through the manager', async () => {
    const m = machine(s, 'sim-1');
    const cd = await s.peer.ok<Record<string, unknown>>({ op: 'vmedia', path: `${SYS}/sim-1`, device: 'Cd', action: 'insert', image: 'http://127.0.0.1:8080/deploy.iso' });
    expect(cd).toMatchObject({ image: 'http://127.0.0.1:8080/deploy.iso', inserted: true, write_protected: true });
    expect(m.virtualMedia()).toEqual({ image: 'http://127.0.0.1:8080/deploy.iso', inserted: true, write_protected: true });
    const ejected = await s.peer.ok<Record<string, unknown>>({ op: 'vmedia', path: `${SYS}/sim-1`, device: 'Cd', action: 'eject' });
    expect(ejected).toMatchObject({ inserted: false });
    expect(m.virtualMedia().inserted).toBe(false);
    const floppy = await s.peer.ok<Record<string, unknown>>({ op: 'vmedia', path: `${SYS}/sim-1`, device: 'Floppy', action: 'insert', image: 'http://127.0.0.1:8080/config.img', write_protected: false });
    expect(floppy).toMatchObject({ inserted: true, write_protected: false, media_types: ['Floppy', 'USBStick'] });
    expect(m.virtualMedia().inserted).toBe(false);
  });

  it('cannot reach another principal’s system (404 → ResourceNotFoundError)', async () => {
    const f = await s.peer.fails({ op: 'system', path: `${SYS}/sim-2` });
    expect(f.type).toBe('ResourceNotFoundError');
    expect(f.status).toBe(404);
  });

  it('with a wrong password sushy raises AccessError', async () => {
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'wrong', auth: 'basic' });
    const f = await s.peer.fails({ op: 'systems' });
    expect(f.type).toBe('AccessError');
    expect(f.status).toBe(401);
    const session = await s.peer.fails({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'wrong', auth: 'session' });
    expect(session.type).toBe('AccessError');
  });
});

describe('sushy with session auth', () => {
  const s = scenario({ sessionTimeoutMs: 10 * 60_000 });

  it('opens a session, works with it, and logs out (the token is dead afterwards)', async () => {
    const c = await s.peer.ok<{ session: boolean; session_uri: string }>({ op: 'connect', url: s.emulator.url, username: 'bob', password: 'b-secret', auth: 'session' });
    expect(c.session).toBe(true);
    expect(c.session_uri).toMatch(/^\/redfish\/v1\/SessionService\/Sessions\/\w+$/);
    expect(await s.peer.ok({ op: 'systems' })).toEqual([`${SYS}/sim-2`]);
    await s.peer.ok({ op: 'reset', path: `${SYS}/sim-2`, type: 'ForceOn' });
    expect(await machine(s, 'sim-2').power()).toBe('on');
    const own = await s.peer.ok<{ status: number; body: { UserName: string } }>({ op: 'raw', method: 'GET', path: c.session_uri });
    expect(own.body.UserName).toBe('bob');

    const basic = { authorization: `Basic ${Buffer.from('bob:b-secret').toString('base64')}` };
    const listed = async () => ((await (await fetch(`${s.emulator.url}/redfish/v1/SessionService/Sessions`, { headers: basic })).json()) as { Members: unknown[] }).Members;
    expect(await listed()).toEqual([{ '@odata.id': c.session_uri }]);
    await s.peer.ok({ op: 'logout' });
    expect(await listed()).toEqual([]);
  });

  it('reads managers, chassis, the session service and the task service through sushy', async () => {
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'bob', password: 'b-secret', auth: 'session' });
    const svc = await s.peer.ok<Record<string, unknown>>({ op: 'services' });
    expect(svc).toMatchObject({
      managers: ['/redfish/v1/Managers/sim-2-bmc'],
      chassis: ['/redfish/v1/Chassis/sim-2'],
      manager_types: ['BMC'],
      session_timeout: 600,
      task_service_enabled: true,
      tasks: [],
    });
    expect(svc.sessions).toHaveLength(1);
  });

  it('SessionOrBasicAuth (sushy’s default) also gets a session', async () => {
    const c = await s.peer.ok<{ session: boolean }>({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'auto' });
    expect(c.session).toBe(true);
    expect(await s.peer.ok({ op: 'systems' })).toEqual([`${SYS}/sim-0`, `${SYS}/sim-1`]);
  });

  it('a BMC that rejects every login makes sushy raise AccessError', async () => {
    machine(s, 'sim-2').faults.reject_credentials = true;
    try {
      const f = await s.peer.fails({ op: 'connect', url: s.emulator.url, username: 'bob', password: 'b-secret', auth: 'session' });
      expect(f.type).toBe('AccessError');
    } finally {
      machine(s, 'sim-2').faults.reject_credentials = false;
    }
  });

  it('error_rate 1.0: sushy sees server errors', async () => {
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'session' });
    machine(s, 'sim-1').faults.error_rate = 1;
    try {
      const post = await s.peer.fails({ op: 'raw', method: 'POST', path: `${SYS}/sim-1/Actions/ComputerSystem.Reset`, data: { ResetType: 'On' } });
      expect(post.type).toBe('ServerSideError');
      expect(post.status).toBe(500);
      expect(post.message).toContain('InternalError');
      // sushy retries a failing GET 10 times, 3 s apart; one try is enough here.
      const get = await s.peer.fails({ op: 'raw', method: 'GET', path: `${SYS}/sim-1`, retries: 0 });
      expect(get.type).toBe('ServerSideError');
      expect(await machine(s, 'sim-1').power()).toBe('off');
      // The other machine of the same principal is unaffected.
      expect((await s.peer.ok<{ power_state: string }>({ op: 'system', path: `${SYS}/sim-0` })).power_state).toBe('Off');
    } finally {
      machine(s, 'sim-1').faults.error_rate = 0;
    }
  });
});

describe('sushy over TLS with a self-signed certificate', () => {
  const s = scenario({ tls: 'self-signed' });
  let dir = '';
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('connects with verify=False and with verify=<the emulator’s certificate>, and fails with the system CAs', async () => {
    expect(s.emulator.url).toMatch(/^https:/);
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'session', verify: false });
    expect(await s.peer.ok({ op: 'systems' })).toHaveLength(2);

    dir = mkdtempSync(path.join(tmpdir(), 'ingot-redfish-tls-'));
    const ca = path.join(dir, 'bmc.pem');
    writeFileSync(ca, s.emulator.certificate as string);
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'basic', verify: ca });
    await s.peer.ok({ op: 'reset', path: `${SYS}/sim-0`, type: 'On' });
    expect(await machine(s, 'sim-0').power()).toBe('on');

    const f = await s.peer.fails({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'basic', verify: true });
    expect(f.type).toBe('ConnectionError');
    expect(f.message).toMatch(/CERTIFICATE_VERIFY_FAILED|certificate verify failed/i);
  });
});

describe('sushy with asynchronous actions (task monitor)', () => {
  const s = scenario({ asyncActions: true, taskDurationMs: 300 });

  it('follows a Reset’s task monitor from Running to Completed', async () => {
    await s.peer.ok({ op: 'connect', url: s.emulator.url, username: 'alice', password: 'a-secret', auth: 'session' });
    const r = await s.peer.ok<Record<string, unknown>>({ op: 'task_monitor', path: `${SYS}/sim-0/Actions/ComputerSystem.Reset`, data: { ResetType: 'On' } });
    expect(r).toMatchObject({ status: 202, first_state: 'Running', final_status: 200, final_state: 'Completed' });
    expect(r.polls as number).toBeGreaterThan(0);
    expect(await machine(s, 'sim-0').power()).toBe('on');
  });

  it('a blocking POST of InsertMedia waits for the task through sushy’s connector', async () => {
    const r = await s.peer.ok<{ status: number; body: { TaskState: string } }>({
      op: 'raw',
      method: 'POST',
      path: '/redfish/v1/Managers/sim-1-bmc/VirtualMedia/Cd/Actions/VirtualMedia.InsertMedia',
      data: { Image: 'http://127.0.0.1/x.iso' },
      blocking: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.TaskState).toBe('Completed');
    expect(machine(s, 'sim-1').virtualMedia()).toMatchObject({ image: 'http://127.0.0.1/x.iso', inserted: true });
  });

  it('sushy’s reset_system accepts the 202', async () => {
    await s.peer.ok({ op: 'reset', path: `${SYS}/sim-1`, type: 'On' });
    const deadline = Date.now() + 5000;
    while ((await machine(s, 'sim-1').power()) !== 'on' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await machine(s, 'sim-1').power()).toBe('on');
  });
});
