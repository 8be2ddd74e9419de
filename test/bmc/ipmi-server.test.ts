/**
 * The IPMI emulator against the real peer: Debian's ipmitool (lanplus, cipher suites 3 and 17).
 */
import { execFile } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bmcMac } from '../../src/bmc/ipmi/identity.js';
import { startIpmiServer, type IpmiServer } from '../../src/bmc/ipmi/server.js';
import type { Machine, MachineFaults } from '../../src/bmc/machine.js';
import { simulatedProfile } from '../../src/bmc/profiles.js';
import { simulatedMachine } from '../../src/bmc/simulated.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function ipmitool(port: number, user: string, password: string, suite: number, args: string[], extra: string[] = []): Promise<Run> {
  const argv = ['-I', 'lanplus', '-H', '127.0.0.1', '-p', String(port), '-U', user, '-P', password, '-C', String(suite), ...extra, ...args];
  return new Promise((resolve) => {
    execFile('ipmitool', argv, { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs ipmitool and fails the test with its output unless it exits 0. */
async function ok(port: number, user: string, password: string, suite: number, args: string[], extra: string[] = []): Promise<string> {
  const run = await ipmitool(port, user, password, suite, args, extra);
  if (run.code !== 0) throw new Error(`ipmitool ${args.join(' ')} (suite ${suite}) exited ${run.code}: ${run.stderr}${run.stdout}`);
  return run.stdout;
}

function machine(i: number, username = 'admin', password = 'secret', faults: Partial<MachineFaults> = {}): Machine {
  return simulatedMachine({ name: `sim-${i}`, profile: simulatedProfile(i), username, password, faults });
}

let server: IpmiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(async () => {
  const found = await new Promise<boolean>((resolve) => execFile('ipmitool', ['-V'], (err) => resolve(!err)));
  if (!found) throw new Error('ipmitool is not installed; the IPMI emulator is tested against it: apt-get install ipmitool');
});

describe('IPMI emulator with ipmitool', () => {
  it('drives power, boot device and reports for suites 3 and 17 on ports of their own', async () => {
    const machines = [machine(0), machine(1)];
    server = await startIpmiServer({ host: '127.0.0.1', machines, mode: { kind: 'port-per-machine', portBase: 0 } });
    const ports = machines.map((m) => server?.ports.get(m.name) as number);
    expect(ports[0]).toBeGreaterThan(0);
    expect(ports[1]).not.toBe(ports[0]);

    // The two suites run at the same time, each on its own machine.
    await Promise.all(
      ([3, 17] as const).map(async (suite, i) => {
        const m = machines[i] as Machine;
        const port = ports[i] as number;
        const run = (...args: string[]) => ok(port, 'admin', 'secret', suite, args);
        const boots: string[] = [];
        m.onBoot((e) => boots.push(e.device));

        expect(await run('power', 'status')).toContain('Chassis Power is off');
        expect(await run('power', 'on')).toContain('Up/On');
        expect(await m.power()).toBe('on');
        expect(await run('power', 'status')).toContain('Chassis Power is on');
        await run('power', 'cycle');
        await run('power', 'reset');
        expect(boots).toHaveLength(3);
        await run('power', 'soft');
        expect(await m.power()).toBe('off');
        await run('power', 'on');
        await run('power', 'off');
        expect(await m.power()).toBe('off');
        expect(await run('chassis', 'status')).toMatch(/System Power\s+: off/);

        expect(await run('chassis', 'bootdev', 'pxe')).toContain('Set Boot Device to pxe');
        expect(m.bootOverride()).toEqual({ device: 'pxe', persistence: 'once', mode: 'legacy' });
        const once = await run('chassis', 'bootparam', 'get', '5');
        expect(once).toContain('Force PXE');
        expect(once).toContain('Options apply to only next boot');

        await run('chassis', 'bootdev', 'disk', 'options=persistent,efiboot');
        expect(m.bootOverride()).toEqual({ device: 'disk', persistence: 'continuous', mode: 'uefi' });
        const persistent = await run('chassis', 'bootparam', 'get', '5');
        expect(persistent).toContain('Force Boot from default Hard-Drive');
        expect(persistent).toContain('Options apply to all future boots');
        expect(persistent).toContain('BIOS EFI boot');

        const mc = await run('mc', 'info');
        expect(mc).toMatch(/IPMI Version\s+: 2\.0/);
        expect(mc).toMatch(/Manufacturer ID\s+: 32473/);
        expect(mc).toMatch(/Firmware Revision\s+: 1\.00/);

        const lan = await run('lan', 'print', '1');
        expect(lan).toMatch(/IP Address\s+: 127\.0\.0\.1/);
        expect(lan).toMatch(/Subnet Mask\s+: 255\.0\.0\.0/);
        expect(lan).toMatch(/IP Address Source\s+: Static Address/);
        expect(lan).toContain(`MAC Address             : ${bmcMac(m.name)}`);
        expect(lan).toMatch(/RMCP\+ Cipher Suites\s+: 3,17/);
      }),
    );
    expect(bmcMac('sim-0')).toMatch(/^02(:[0-9a-f]{2}){5}$/);
    expect(bmcMac('sim-0')).not.toBe(bmcMac('sim-1'));
  });

  it('refuses a wrong password, an unknown user, rejected credentials and suites other than 3 and 17', async () => {
    const machines = [machine(0), machine(1, 'admin', 'secret', { reject_credentials: true })];
    server = await startIpmiServer({ host: '127.0.0.1', machines, mode: { kind: 'port-per-machine', portBase: 0 } });
    const port = server.ports.get('sim-0') as number;
    const rejecting = server.ports.get('sim-1') as number;
    const fast = ['-v', '-R', '1', '-N', '2'];
    const [wrong, unknown, rejected, suite1, suite0] = await Promise.all([
      ipmitool(port, 'admin', 'wrong', 17, ['power', 'status'], fast),
      ipmitool(port, 'nobody', 'secret', 3, ['power', 'status'], fast),
      ipmitool(rejecting, 'admin', 'secret', 3, ['power', 'status'], fast),
      ipmitool(port, 'admin', 'secret', 1, ['power', 'status'], fast),
      ipmitool(port, 'admin', 'secret', 0, ['power', 'status'], fast),
    ]);
    for (const run of [wrong, unknown, rejected, suite1, suite0]) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('Unable to establish IPMI v2 / RMCP+ session');
    }
    expect(wrong.stderr).toContain('RAKP 2 HMAC is invalid');
    expect(rejected.stderr).toContain('RAKP 2 HMAC is invalid');
    expect(unknown.stderr).toContain('RAKP 2 message indicates an error : unauthorized name');
    expect(suite1.stderr).toContain('invalid integrity algorithm');
    expect(suite0.stderr).toContain('invalid authentication algorithm');
    // The right password still works after the failures.
    expect(await ok(port, 'admin', 'secret', 17, ['power', 'status'])).toContain('Chassis Power is off');
  });

  it('serves two machines on one port, chosen by the user name', async () => {
    const machines = [machine(0, 'alice', 'pw-alice'), machine(1, 'bob', 'pw-bob')];
    server = await startIpmiServer({ host: '127.0.0.1', machines, mode: { kind: 'shared-port', port: 0 } });
    const port = server.ports.get('sim-0') as number;
    expect(server.ports.get('sim-1')).toBe(port);
    await Promise.all([ok(port, 'alice', 'pw-alice', 17, ['power', 'on']), ok(port, 'bob', 'pw-bob', 3, ['chassis', 'bootdev', 'cdrom'])]);
    expect(await machines[0]?.power()).toBe('on');
    expect(await machines[1]?.power()).toBe('off');
    expect(machines[1]?.bootOverride().device).toBe('cdrom');
    expect(machines[0]?.bootOverride().device).toBe('none');
    expect(await ok(port, 'bob', 'pw-bob', 17, ['power', 'status'])).toContain('Chassis Power is off');
    // Alice's password is not Bob's.
    const cross = await ipmitool(port, 'bob', 'pw-alice', 17, ['power', 'status'], ['-v', '-R', '1', '-N', '2']);
    expect(cross.code).not.toBe(0);
    expect(cross.stderr).toContain('RAKP 2 HMAC is invalid');
  });

  it('still gets through when a third of the packets are dropped, thanks to retries', async () => {
    const m = machine(0, 'admin', 'secret', { drop_rate: 0.3 });
    const log: string[] = [];
    // Every third packet is lost once each session is up (never two in a row, so the test does not hang
    // on luck). NOTE: ipmitool 1.8.19 retransmits session commands but gives up on a lost RAKP message, so
    // the handshake (auth caps, open session, RAKP 1 and 3: 4 packets) is left alone.
    let n = 0;
    const random = () => {
      n += 1;
      const inSession = (n - 1) % 8 >= 4;
      return inSession && n % 3 === 0 ? 0 : 1;
    };
    server = await startIpmiServer({ host: '127.0.0.1', machines: [m], mode: { kind: 'port-per-machine', portBase: 0 }, logger: { debug: (line) => log.push(line) }, random });
    const port = server.ports.get('sim-0') as number;
    const retry = ['-R', '10', '-N', '1'];
    await ok(port, 'admin', 'secret', 17, ['power', 'on'], retry);
    expect(await m.power()).toBe('on');
    expect(await ok(port, 'admin', 'secret', 3, ['power', 'status'], retry)).toContain('Chassis Power is on');
    // Two sessions of about eight exchanges each: some packets were dropped for real.
    expect(log.filter((l) => l.includes('packet dropped')).length).toBeGreaterThan(0);
  }, 120_000);
});
