import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { parseMachineSpecs } from '../../bmc/fleet-spec.js';
import { IngotConfig } from '../../config/ingot-config.js';
import { DEFAULT_LAB_PORTS, labDriver, labIngotConfig, labMachines, labUrls } from './lab-config.js';

describe('the lab configuration', () => {
  it('is a valid Ingot configuration that serves DHCP, TFTP, HTTP boot and file:// images from the lab', () => {
    const config = labIngotConfig({ labDir: '/srv/lab', dataDir: '/srv/lab/ingot', vmDir: '/srv/lab/vms', ports: DEFAULT_LAB_PORTS, logLevel: 'info' });
    const raw = structuredClone(config) as unknown as Record<string, unknown>;
    for (const group of Object.keys((IngotConfig as unknown as { properties: object }).properties)) raw[group] ??= {};
    const full = Value.Default(IngotConfig as TSchema, raw);
    expect([...Value.Errors(IngotConfig as TSchema, full)]).toEqual([]);
    expect(config.boot).toMatchObject({ http_enabled: true, http_host: '10.77.0.1', http_url: 'http://10.77.0.1:8088', api_url: 'http://10.77.0.1:6385', tftp_server: '10.77.0.1' });
    expect(config.dhcp).toEqual({
      provider: 'dnsmasq',
      managed: { enabled: true, interface: 'br-lab', range_start: '10.77.0.100', range_end: '10.77.0.199', netmask: '255.255.255.0', router_advertisement: true },
    });
    expect(config.images.file_url_allowed_paths).toEqual(['/srv/lab']);
    expect(config.api).toEqual({ host: '0.0.0.0', port: 6385, allow_insecure_noauth: true });
    expect(config.conductor.fast_track).toBe(false);
    expect(config.conductor.console_log_allowed_paths).toEqual(['/srv/lab/vms']);
    expect(labIngotConfig({ labDir: '/srv/lab', dataDir: '/srv/lab/ingot', vmDir: '/srv/lab/vms', ports: DEFAULT_LAB_PORTS, logLevel: 'info', fastTrack: true }).conductor.fast_track).toBe(true);
    expect(labUrls({ ...DEFAULT_LAB_PORTS, redfish: 9000 }).redfish).toBe('http://10.77.0.1:9000');
  });

  it('declares QEMU machines ingot bmc accepts, one tap and MAC each', () => {
    const specs = labMachines({ machines: 3, memoryMib: 768, diskGib: 2, username: 'admin', password: 'pw' });
    expect(parseMachineSpecs(specs)).toHaveLength(3);
    expect(specs.map((s) => [s.name, s.nics?.[0]?.mac, s.nics?.[0]?.tap])).toEqual([
      ['lab-1', '52:54:00:77:00:01', 'tap1'], ['lab-2', '52:54:00:77:00:02', 'tap2'], ['lab-3', '52:54:00:77:00:03', 'tap3'],
    ]);
    expect(specs[0]).toMatchObject({ backend: 'qemu', memory_mib: 768, disk_gib: 2, cpus: 1 });
  });

  it('splits the machines between Redfish and IPMI by the share', () => {
    expect([0, 1].map((i) => labDriver(i, 2, 0.5))).toEqual(['redfish', 'ipmi']);
    expect([0, 1, 2].map((i) => labDriver(i, 3, 0))).toEqual(['ipmi', 'ipmi', 'ipmi']);
    expect([0, 1, 2].map((i) => labDriver(i, 3, 1))).toEqual(['redfish', 'redfish', 'redfish']);
  });
});
