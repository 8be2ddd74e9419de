import { describe, it, expect } from 'vitest';
import { architectureHook } from '../../../src/inspection/hooks/architecture.js';
import { cpusHook } from '../../../src/inspection/hooks/cpus.js';
import { memoryHook } from '../../../src/inspection/hooks/memory.js';
import { ramdiskErrorHook } from '../../../src/inspection/hooks/ramdisk-error.js';
import { guessRootDisk, rootDeviceHook } from '../../../src/inspection/hooks/root-device.js';
import { validateInspectionPayload } from '../../../src/inspection/validate.js';
import { simulatedProfile } from '../../../src/bmc/profiles.js';
import type { JsonObject } from '../../../src/domain/node.js';
import { hookContext, ipaSample, payloadFromProfile } from '../processing-fixtures.js';

const GIB = 2 ** 30;
const sample = () => validateInspectionPayload(ipaSample());
// Machine 2: disks 240 GB (SSD), 3 × 4000 GB (HDD), in decimal gigabytes.
const storage = () => validateInspectionPayload(payloadFromProfile(simulatedProfile(2), 2));

describe('ramdisk-error', () => {
  it('fails with the ramdisk message and passes otherwise', () => {
    const body = sample();
    expect(ramdiskErrorHook.preprocess!(hookContext({ payload: body })).failure).toBeUndefined();
    body.error = 'No disks found';
    expect(ramdiskErrorHook.preprocess!(hookContext({ payload: body })).failure).toBe('Ramdisk reported error: No disks found');
  });
  it('turns collector errors into warnings', () => {
    const body = sample();
    body.collector_errors = { lldp: 'lldpd not running' };
    expect(ramdiskErrorHook.preprocess!(hookContext({ payload: body })).notes).toEqual([{ level: 'warning', message: 'collector lldp failed: lldpd not running' }]);
  });
});

describe('architecture, cpus, memory', () => {
  it('set cpu_arch, cpus and memory_mb from the inventory', () => {
    const ctx = hookContext({ payload: sample() });
    expect(architectureHook.run!(ctx).properties).toEqual({ cpu_arch: 'x86_64' });
    expect(cpusHook.run!(ctx).properties).toEqual({ cpus: 2 });
    expect(memoryHook.run!(ctx).properties).toEqual({ memory_mb: 24576 });
  });
  it('architecture fails without one; cpus skips a zero count', () => {
    const body = sample();
    body.inventory.cpu.architecture = '';
    body.inventory.cpu.count = 0;
    expect(architectureHook.run!(hookContext({ payload: body })).failure).toMatch(/missing CPU architecture/);
    const r = cpusHook.run!(hookContext({ payload: body }));
    expect(r.properties).toBeUndefined();
    expect(r.notes![0]!.level).toBe('warning');
  });
  it('memory falls back to the total, in MiB, and fails with neither', () => {
    const body = sample();
    (body.inventory.memory as { physical_mb: number | null }).physical_mb = null;
    expect(memoryHook.run!(hookContext({ payload: body })).properties).toEqual({ memory_mb: Math.floor(25276059648 / 2 ** 20) });
    (body.inventory.memory as { total: number | null }).total = null;
    expect(memoryHook.run!(hookContext({ payload: body })).failure).toMatch(/missing memory information/);
  });
});

describe('root-device', () => {
  const run = (payload = storage(), properties: JsonObject = {}, config = {}) => rootDeviceHook.run!(hookContext({ payload, properties, config }));

  it('uses the agent root_disk: 256 GiB -> local_gb 255', () => {
    const r = run(sample());
    expect(r.properties).toEqual({ local_gb: 255 });
    expect((r.pluginData!.root_disk as { name: string }).name).toBe('/dev/vda');
  });

  it('without root_disk, picks the smallest disk of at least 4 GiB (240 GB -> 222)', () => {
    const body = storage();
    expect(body.root_disk).toBeUndefined();
    expect(run(body).properties).toEqual({ local_gb: 222 }); // floor(240e9 / 2^30) = 223, minus 1
    expect(run(body, {}, { disk_partitioning_spacing: false }).properties).toEqual({ local_gb: 223 });
    expect(guessRootDisk([{ size: 3 * GIB }, { size: 8 * GIB }, { size: 5 * GIB }])).toEqual({ size: 5 * GIB });
    expect(guessRootDisk([{ size: 3 * GIB }])).toBeNull();
  });

  it('applies root device hints (rotational disks, ≥ 3000 GiB) and stores the match', () => {
    const r = run(storage(), { root_device: { rotational: true, size: '>= 3000', serial: 's== simdisk2-2' } });
    expect(r.failure).toBeUndefined();
    expect((r.pluginData!.root_disk as { name: string }).name).toBe('/dev/sdc');
    expect(r.properties).toEqual({ local_gb: 3724 }); // floor(4000e9 / 2^30) = 3725, minus 1
  });

  it('honours skip_block_devices', () => {
    const r = run(storage(), { root_device: { rotational: true }, skip_block_devices: [{ name: '/dev/sdb' }, { serial: 'SIMDISK2-2' }] });
    expect((r.pluginData!.root_disk as { name: string }).name).toBe('/dev/sdd');
  });

  it('fails when hints match nothing or do not parse', () => {
    expect(run(storage(), { root_device: { size: '>= 10000' } }).failure).toBe('No disks satisfied root device hints {"size":">= 10000"}');
    expect(run(storage(), { root_device: { size: 'big' } }).failure).toMatch(/failed to validate\. Error: Root device hint "size" is not an integer value/);
  });

  it('a diskless node gets local_gb 0', () => {
    const body = storage();
    body.inventory.disks = [{ ...body.inventory.disks[0]!, size: 2 * GIB }];
    expect(run(body).properties).toEqual({ local_gb: 0 });
  });
});
