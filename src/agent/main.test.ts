import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it, expect } from 'vitest';
import { listenHttp, readText, sendJson } from '../../test/support/http-server.js';
import type { InspectionPayload } from '../protocol/agent/inventory.js';
import type { HardwareProfile } from '../protocol/hardware/profile.js';
import { fakeSystem } from './fake-system.test-support.js';
import { runAgent } from './main.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function receiver(status = 202): Promise<{ url: string; got: InspectionPayload[] }> {
  const got: InspectionPayload[] = [];
  const server = await listenHttp(async (req, res) => {
    got.push(JSON.parse(await readText(req)) as InspectionPayload);
    sendJson(res, status, { uuid: 'n1' });
  });
  cleanups.push(server.close);
  return { url: `${server.url}/v1/continue_inspection`, got };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) };
}

const PROFILE: HardwareProfile = {
  manufacturer: 'Ingot Simulated',
  model: 'Sim 1U',
  serial_number: 'SIM000007',
  system_uuid: '00000000-0000-4000-8000-000000000007',
  cpu: { count: 4, model_name: 'Sim CPU', frequency_mhz: 2400, architecture: 'x86_64', flags: ['lm'] },
  memory_mib: 8192,
  disks: [{ name: '/dev/sda', size_bytes: 480e9, model: 'SIM SSD', vendor: 'INGOT', serial: 'D0', rotational: false, wwn: null }],
  nics: [
    { name: 'eth0', mac: '52:54:00:00:00:38', speed_mbps: 10000, pxe_enabled: true },
    { name: 'eth1', mac: '52:54:00:00:00:39', speed_mbps: 10000, pxe_enabled: false },
  ],
  boot_mode: 'uefi',
};

describe('runAgent', () => {
  it('collects on the (fake) machine, posts to the callback from the kernel command line, exits 0', async () => {
    const { url, got } = await receiver();
    const io = capture();
    const system = fakeSystem({ files: { '/proc/cpuinfo': 'processor\t: 0\n' }, tools: { lsblk: () => '{"blockdevices":[]}' } });
    const code = await runAgent(['--inspection-collectors=default,nosuch'], { cmdline: `quiet ipa-inspection-callback-url=${url} ipa-ntp-server=10.0.0.1 BOOTIF=01-52-54-00-00-00-01`, system, ...io });
    expect(code).toBe(0);
    expect(got).toHaveLength(1);
    expect(got[0]?.boot_interface).toBe('52:54:00:00:00:01');
    expect(got[0]?.collector_errors).toEqual({ nosuch: expect.stringMatching(/unknown collector/) });
    expect(io.out.join('')).toBe('{"uuid":"n1"}\n');
    const log = io.err.join('');
    expect(log).toContain('ignoring unknown parameter ipa-ntp-server=10.0.0.1');
    expect(log).toContain('problem: /proc/meminfo unreadable');
    expect(log).toMatch(/posted to .* HTTP 202 after 1 attempt/);
  });

  it('posts the simulated profile’s inventory', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-agent-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'profile.json');
    await writeFile(file, JSON.stringify(PROFILE));
    const { url, got } = await receiver();
    const code = await runAgent(
      [`--inspection-callback-url=${url}`, '--hardware-manager=simulated', `--simulated-profile=${file}`, '--simulated-bmc-address=192.0.2.77'],
      { cmdline: '', system: fakeSystem(), ...capture() },
    );
    expect(code).toBe(0);
    const p = got[0] as InspectionPayload;
    expect(p.inventory.interfaces.map((i) => i.mac_address)).toEqual(['52:54:00:00:00:38', '52:54:00:00:00:39']);
    expect(p.inventory.bmc_address).toBe('192.0.2.77');
    expect(p.boot_interface).toBe('52:54:00:00:00:38');
    expect(p.root_disk?.name).toBe('/dev/sda');
    expect(p.configuration?.managers).toEqual([{ name: 'ingot_simulated_hardware_manager', version: '1.0' }]);
  });

  it('exits 1 when the callback refuses the data', async () => {
    const { url } = await receiver(400);
    const io = capture();
    expect(await runAgent([`--inspection-callback-url=${url}`], { cmdline: '', system: fakeSystem(), ...io })).toBe(1);
    expect(io.err.join('')).toMatch(/refused the data: HTTP 400/);
  });

  it.each([
    [['--debug=perhaps'], /--debug: "perhaps" is not a boolean/],
    [[], /neither ipa-inspection-callback-url nor ipa-api-url/],
    [['--print-payload', '--hardware-manager=simulated'], /ipa-simulated-profile: the simulated hardware manager needs/],
    [['--print-payload', '--hardware-manager=simulated', '--simulated-profile=/nonexistent/p.json'], /ipa-simulated-profile: \/nonexistent\/p.json: ENOENT/],
  ])('exits 2 on bad configuration %j', async (args, message) => {
    const io = capture();
    expect(await runAgent(args, { cmdline: '', system: fakeSystem(), ...io })).toBe(2);
    expect(io.err.join('')).toMatch(message);
  });

  it('exits 1 when the lookup of the deploy agent gives up', async () => {
    const server = await listenHttp((_req, res) => sendJson(res, 404, { error_message: JSON.stringify({ faultstring: 'no node' }) }));
    cleanups.push(server.close);
    const io = capture();
    const api = server.url;
    const code = await runAgent([`--api-url=${api}`, '--lookup-timeout=0.3', '--lookup-interval=0.05', '--listen-host=127.0.0.1', '--listen-port=0'], { cmdline: '', system: fakeSystem(), ...io });
    expect(code).toBe(1);
    expect(io.err.join('')).toMatch(/Could not look up the node at http:\/\/127\.0\.0\.1:\d+ .* within 0 s: Error 404: no node/);
  });

  it('prints usage for --help and the payload for --print-payload', async () => {
    const io = capture();
    expect(await runAgent(['--help'], { cmdline: '', ...io })).toBe(0);
    expect(io.out.join('')).toContain('--inspection-callback-url');
    const io2 = capture();
    expect(await runAgent(['--print-payload'], { cmdline: '', system: fakeSystem({ hostname: 'h1' }), ...io2 })).toBe(0);
    expect((JSON.parse(io2.out.join('')) as InspectionPayload).inventory.hostname).toBe('h1');
  });
});
