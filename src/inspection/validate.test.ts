import { describe, it, expect } from 'vitest';
import type { IngotError } from '../shared/errors.js';
import { ipaInventorySample } from '../../test/fixtures/ipa-inventory-sample.js';
import { PAYLOAD_LIMITS } from '../protocol/agent/inventory.js';
import { InspectionDataError, jsonPath, validateInspectionPayload } from './validate.js';

const SAMPLE = ipaInventorySample();

function sample(): { inventory: Record<string, unknown> & { interfaces: Record<string, unknown>[]; disks: Record<string, unknown>[] } } & Record<string, unknown> {
  return structuredClone(SAMPLE) as never;
}

function rejects(body: unknown): InspectionDataError {
  try {
    validateInspectionPayload(body);
  } catch (err) {
    expect(err).toBeInstanceOf(InspectionDataError);
    expect((err as IngotError).code).toBe('InvalidParameterValue');
    return err as InspectionDataError;
  }
  throw new Error('payload was accepted');
}

describe('validateInspectionPayload', () => {
  it('accepts the payload a real IPA posted, unchanged apart from normalisation', () => {
    const payload = validateInspectionPayload(sample());
    expect(payload.inventory.cpu.count).toBe(2);
    expect(payload.inventory.interfaces[0]!.mac_address).toBe('02:fc:00:00:00:01');
    expect(payload.inventory.disks[0]!.size).toBe(274877906944);
    expect(payload.pci_devices).toHaveLength(6);
  });

  it('lower-cases MACs and turns pxelinux boot interfaces into MACs, without touching the input', () => {
    const body = sample();
    body.inventory.interfaces[0]!.mac_address = '02:FC:00:00:00:0A';
    (body.inventory as Record<string, unknown>).boot = { current_boot_mode: 'uefi', pxe_interface: '01-02-FC-00-00-00-0A' };
    body.boot_interface = '02-FC-00-00-00-0A';
    const payload = validateInspectionPayload(body);
    expect(payload.inventory.interfaces[0]!.mac_address).toBe('02:fc:00:00:00:0a');
    expect(payload.inventory.boot.pxe_interface).toBe('02:fc:00:00:00:0a');
    expect(payload.boot_interface).toBe('02:fc:00:00:00:0a');
    expect(body.inventory.interfaces[0]!.mac_address).toBe('02:FC:00:00:00:0A');
  });

  it('rejects a body that is not an object', () => {
    for (const body of [null, 'x', 42, [1], undefined]) expect(rejects(body).message).toMatch(/^\(body\): expected a JSON object/);
  });

  it('rejects a missing or ill-typed inventory, naming the path', () => {
    expect(rejects({}).message).toBe('inventory: is required');
    expect(rejects({ inventory: [] }).path).toBe('inventory');
    const body = sample();
    delete (body.inventory as Record<string, unknown>).interfaces;
    expect(rejects(body).message).toBe('inventory.interfaces: is required');
  });

  it('rejects an interface without a MAC and a bad MAC, naming the interface', () => {
    const missing = sample();
    missing.inventory.interfaces.push({ name: 'eth1' }, { name: 'eth2', mac_address: 'zz' });
    expect(rejects(missing).message).toBe('inventory.interfaces[1].mac_address: is required');
    const bad = sample();
    bad.inventory.interfaces.push({ name: 'eth1', mac_address: '52:54:00:00:00:01' }, { name: 'eth2', mac_address: 'zz' });
    expect(rejects(bad).message).toBe('inventory.interfaces[2].mac_address: "zz" is not a MAC address');
    const nul = sample();
    nul.inventory.interfaces[0]!.mac_address = null;
    expect(rejects(nul).path).toBe('inventory.interfaces[0].mac_address');
  });

  it('accepts a 20-octet InfiniBand hardware address (processing skips it)', () => {
    const body = sample();
    body.inventory.interfaces.push({ name: 'ib0', mac_address: 'a0:00:02:20:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0e:2e:71' });
    expect(validateInspectionPayload(body).inventory.interfaces).toHaveLength(2);
  });

  it('rejects duplicate interface names', () => {
    const body = sample();
    body.inventory.interfaces.push({ name: 'eth0', mac_address: '52:54:00:00:00:01' });
    expect(rejects(body).message).toBe('inventory.interfaces[1].name: "eth0" is already used by inventory.interfaces[0]');
  });

  it('rejects absurd sizes: negative, fractional, strings', () => {
    const negative = sample();
    negative.inventory.disks[0]!.size = -1;
    expect(rejects(negative).message).toMatch(/^inventory\.disks\[0\]\.size: -1 is not valid/);
    const text = sample();
    text.inventory.disks[0]!.size = '256G';
    expect(rejects(text).message).toMatch(/^inventory\.disks\[0\]\.size: "256G" is not valid/);
    const mem = sample();
    (mem.inventory.memory as Record<string, unknown>).physical_mb = -5;
    expect(rejects(mem).path).toBe('inventory.memory.physical_mb');
    const cpus = sample();
    (cpus.inventory.cpu as Record<string, unknown>).count = 2.5;
    expect(rejects(cpus).path).toBe('inventory.cpu.count');
  });

  it('bounds the number of interfaces and disks', () => {
    const nics = sample();
    nics.inventory.interfaces = Array.from({ length: PAYLOAD_LIMITS.interfaces + 1 }, (_, i) => ({
      name: `eth${i}`, mac_address: `52:54:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
    }));
    expect(rejects(nics).message).toBe('inventory.interfaces: has 1025 entries, more than the limit of 1024');
    const disks = sample();
    disks.inventory.disks = Array.from({ length: PAYLOAD_LIMITS.disks + 1 }, (_, i) => ({ name: `/dev/sd${i}`, size: 1 }));
    expect(rejects(disks).message).toBe('inventory.disks: has 4097 entries, more than the limit of 4096');
    const okay = sample();
    okay.inventory.interfaces = nics.inventory.interfaces.slice(0, PAYLOAD_LIMITS.interfaces);
    expect(validateInspectionPayload(okay).inventory.interfaces).toHaveLength(1024);
  });

  it('rejects ill-typed plugin data and LLDP', () => {
    const err = sample();
    err.error = 42;
    expect(rejects(err).path).toBe('error');
    const lldp = sample();
    lldp.inventory.interfaces[0]!.lldp = [[1, 2]];
    expect(rejects(lldp).path).toBe('inventory.interfaces[0].lldp[0][1]');
  });

  it('renders JSON pointers as JSON paths', () => {
    expect(jsonPath('/inventory/interfaces/2/mac_address')).toBe('inventory.interfaces[2].mac_address');
    expect(jsonPath('/lldp_raw/eth 0/1')).toBe('lldp_raw["eth 0"][1]');
    expect(jsonPath('')).toBe('');
  });
});
