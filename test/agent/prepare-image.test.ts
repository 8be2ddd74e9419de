// standby.prepare_image end to end: a raw whole-disk image (MBR or GPT, made with sfdisk) served over
// HTTP, streamed by the simulated machine's agent onto its disk file, then checked with the real tools:
// sfdisk --json / --verify and sgdisk -v / -p, the config drive's bytes, sparseness, and the failures
// (checksum mismatch, too large, 404, qcow2).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, it, expect } from 'vitest';
import type { AgentCommandResult } from '../../src/protocol/agent/commands.js';
import { startSimulatedDeployAgent } from '../../src/agent/simulation.js';
import { PROFILE, command, fakeConductor, imageServer, requireTool, run, type ServedFile } from './deploy-peers.js';

const TOKEN = 'tok-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd';
const NODE = '6f1f2a8e-3b51-4f43-9d77-0a1e2b3c4d5e';
const MIB = 2 ** 20;
const IMAGE_BYTES = 32 * MIB;

let dir: string;
let configDriveIso: Buffer;

beforeAll(async () => {
  await requireTool('sfdisk', 'fdisk');
  await requireTool('sgdisk', 'gdisk');
  await requireTool('genisoimage', 'genisoimage');
  dir = await mkdtemp(path.join(os.tmpdir(), 'ingot-prepare-image-'));
  const tree = path.join(dir, 'cd');
  await mkdir(path.join(tree, 'openstack', 'latest'), { recursive: true });
  await writeFile(path.join(tree, 'openstack', 'latest', 'meta_data.json'), JSON.stringify({ uuid: NODE, hostname: 'sim-42' }));
  await writeFile(path.join(tree, 'openstack', 'latest', 'user_data'), randomBytes(1500 * 1024)); // an ISO of ~1.5 MiB: 2 MiB partition
  await run('genisoimage', ['-quiet', '-o', path.join(dir, 'cd.iso'), '-V', 'config-2', '-J', '-r', tree]);
  configDriveIso = await readFile(path.join(dir, 'cd.iso'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A mostly-zero 32 MiB image with a partition table from `sfdisk` and some random data in its partitions. */
async function makeImage(name: string, script: string, extra?: (file: string) => Promise<void>): Promise<Buffer> {
  const file = path.join(dir, name);
  await writeFile(file, '');
  const fh = await open(file, 'r+');
  await fh.truncate(IMAGE_BYTES);
  await fh.close();
  await run('sh', ['-c', 'printf "%s" "$0" | sfdisk --quiet --no-reread --no-tell-kernel "$1"', script, file]);
  const data = await open(file, 'r+');
  await data.write(randomBytes(MIB), 0, MIB, 2 * MIB);
  await data.write(randomBytes(MIB / 2), 0, MIB / 2, 12 * MIB);
  await data.close();
  await extra?.(file);
  return readFile(file);
}

interface Deployment {
  url: string;
  disk: string;
  small: string;
  serve(files: Record<string, ServedFile>): Promise<string>;
}

async function deployment(nodeProps: Record<string, unknown> = {}): Promise<Deployment> {
  const work = await mkdtemp(path.join(dir, 'run-'));
  const conductor = await fakeConductor({ nodeUuid: NODE, token: TOKEN, macs: [PROFILE.nics[0]!.mac], properties: nodeProps });
  cleanups.push(() => conductor.close());
  const disk = path.join(work, 'sda.img');
  const small = path.join(work, 'sdb.img');
  const agent = await startSimulatedDeployAgent({
    profile: PROFILE,
    apiUrl: conductor.url,
    disks: { '/dev/sda': disk, '/dev/sdb': small },
    lookupIntervalMs: 50,
    heartbeatMinIntervalMs: 200,
    download: { retries: 1, retryIntervalMs: 50, timeoutMs: 5000 },
  });
  cleanups.push(() => agent.stop());
  return {
    url: `http://127.0.0.1:${agent.port}`,
    disk,
    small,
    async serve(files) {
      const s = await imageServer(files);
      cleanups.push(() => s.close());
      return s.url;
    },
  };
}

async function prepare(d: Deployment, imageInfo: Record<string, unknown>, configdrive?: string): Promise<AgentCommandResult> {
  const r = await command(d.url, 'standby.prepare_image', { image_info: { disk_format: 'raw', ...imageInfo }, ...(configdrive ? { configdrive } : {}) }, { token: TOKEN, wait: true });
  expect(r.status).toBe(200);
  return r.body;
}

async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(length);
    await fh.read(b, 0, length, offset);
    return b;
  } finally {
    await fh.close();
  }
}

interface SfdiskJson {
  partitiontable: { label: string; id: string; sectorsize: number; partitions: { node: string; start: number; size: number; type: string; name?: string }[] };
}

async function sfdiskJson(file: string): Promise<SfdiskJson['partitiontable']> {
  return (JSON.parse((await run('sfdisk', ['--json', file])).stdout) as SfdiskJson).partitiontable;
}

const configdrive = () => gzipSync(configDriveIso).toString('base64');

describe('standby.prepare_image onto a disk file', () => {
  it('writes an MBR image, adds the config drive as a new primary partition at the end, and stays sparse', async () => {
    const image = await makeImage('mbr.img', 'label: dos\nlabel-id: 0x1234abcd\nstart=2048, size=20480, type=83, bootable\nstart=22528, size=20480, type=83\n');
    const d = await deployment();
    const url = await d.serve({ '/mbr.img': { data: image } });
    const result = await prepare(d, { id: 'mbr-image', urls: [`${url}/mbr.img`], os_hash_algo: 'sha256', os_hash_value: sha256(image) }, configdrive());
    expect(result.command_error).toBeNull();
    expect(result.command_status).toBe('SUCCEEDED');
    expect(result.command_result).toEqual({ result: 'prepare_image: image (mbr-image) written to device /dev/sda root_uuid=0x1234abcd' });

    const table = await sfdiskJson(d.disk);
    expect(table.label).toBe('dos');
    expect(table.id).toBe('0x1234abcd');
    const parts = table.partitions.map((p) => ({ start: p.start, size: p.size, type: p.type }));
    const diskSectors = (8 * 2 ** 30) / 512;
    const cdSectors = Math.ceil(configDriveIso.length / MIB) * 2048;
    expect(parts).toEqual([
      { start: 2048, size: 20480, type: '83' },
      { start: 22528, size: 20480, type: '83' },
      { start: diskSectors - cdSectors, size: cdSectors, type: '83' },
    ]);
    await run('sfdisk', ['--verify', d.disk]);
    expect(sha256(await readRange(d.disk, (diskSectors - cdSectors) * 512, configDriveIso.length))).toBe(sha256(configDriveIso));
    // Past the partition table, the image region is the image.
    expect(sha256(await readRange(d.disk, 512, IMAGE_BYTES - 512))).toBe(sha256(image.subarray(512)));
    expect((await readRange(d.disk, 0, 446)).equals(image.subarray(0, 446))).toBe(true);
    const st = await stat(d.disk);
    expect(st.size).toBe(8 * 2 ** 30);
    expect(st.blocks * 512).toBeLessThan(8 * MIB);
    const uuids = await command(d.url, 'standby.get_partition_uuids', {}, { token: TOKEN });
    expect(uuids.body.command_result).toEqual({ 'root uuid': '0x1234abcd' });
  });

  it('writes a GPT image, moves the backup table to the disk end and adds the config drive partition (sgdisk -v clean)', async () => {
    const image = await makeImage('gpt.img', 'label: gpt\nstart=2048, size=20480, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\nstart=22528, size=20480, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n');
    const d = await deployment();
    const url = await d.serve({ '/gpt.img': { data: image, chunked: true } });
    const result = await prepare(d, { id: 'gpt-image', urls: [`${url}/missing.img`, `${url}/gpt.img`], os_hash_algo: 'sha512', os_hash_value: createHash('sha512').update(image).digest('hex').toUpperCase() }, configdrive());
    expect(result.command_error).toBeNull();

    const verify = await run('sgdisk', ['-v', d.disk]);
    expect(verify.stdout).toContain('No problems found');
    const printed = (await run('sgdisk', ['-p', d.disk])).stdout;
    expect(printed).toMatch(/Number\s+Start \(sector\)/);
    const diskSectors = (8 * 2 ** 30) / 512;
    const table = await sfdiskJson(d.disk);
    expect(table.label).toBe('gpt');
    const cdSectors = Math.ceil(configDriveIso.length / MIB) * 2048;
    const lastUsable = diskSectors - 34;
    const cdStart = Math.floor((lastUsable + 1) / 2048) * 2048 - cdSectors;
    expect(table.partitions.map((p) => [p.start, p.size])).toEqual([[2048, 20480], [22528, 20480], [cdStart, cdSectors]]);
    expect(table.partitions[2]).toMatchObject({ type: '0FC63DAF-8483-4772-8E79-3D69D8477DE4', name: 'config-2' });
    expect(printed).toMatch(new RegExp(`\\n\\s+3\\s+${cdStart}\\s+${cdStart + cdSectors - 1}\\s`));
    expect(sha256(await readRange(d.disk, cdStart * 512, configDriveIso.length))).toBe(sha256(configDriveIso));
    // Between the primary table and the image's old backup table, the disk holds the image.
    expect(sha256(await readRange(d.disk, 34 * 512, IMAGE_BYTES - 67 * 512))).toBe(sha256(image.subarray(34 * 512, IMAGE_BYTES - 33 * 512)));
    expect((await stat(d.disk)).blocks * 512).toBeLessThan(8 * MIB);
  });

  it('reuses an existing config-2 partition of the image instead of adding one', async () => {
    const image = await makeImage('gpt-cd.img', 'label: gpt\nstart=2048, size=20480\nstart=22528, size=20480\nstart=43008, size=8192\n', async (file) => {
      const fh = await open(file, 'r+');
      const old = Buffer.alloc(32768 + 2048);
      old[32768] = 1;
      old.write('CD001', 32769, 'latin1');
      old.write('config-2'.padEnd(32, ' '), 32768 + 40, 'latin1');
      await fh.write(old, 0, old.length, 43008 * 512);
      await fh.close();
    });
    const d = await deployment();
    const url = await d.serve({ '/gpt-cd.img': { data: image } });
    const result = await prepare(d, { id: 'with-cd', urls: [`${url}/gpt-cd.img`], os_hash_algo: 'sha256', os_hash_value: sha256(image) }, configdrive());
    expect(result.command_error).toBeNull();
    const table = await sfdiskJson(d.disk);
    expect(table.partitions).toHaveLength(3);
    expect(sha256(await readRange(d.disk, 43008 * 512, configDriveIso.length))).toBe(sha256(configDriveIso));
  });

  it('takes the config drive from a URL and the checksum from a checksum file, through deploy.execute_deploy_step write_image', async () => {
    const image = await makeImage('url.img', 'label: dos\nstart=2048, size=20480, type=83\n');
    const d = await deployment();
    const url = await d.serve({
      '/url.img': { data: image },
      '/SHA256SUMS': { data: Buffer.from(`${'0'.repeat(64)}  other.img\n${sha256(image)} *url.img\n`) },
      '/cd.iso': { data: configDriveIso },
    });
    const step = { step: 'write_image', priority: 80, interface: 'deploy', reboot_requested: false, args: { image_info: { id: 'via-step', urls: [`${url}/url.img`], os_hash_algo: 'sha256', os_hash_value: `${url}/SHA256SUMS`, disk_format: 'raw' }, configdrive: `${url}/cd.iso` } };
    const r = await command(d.url, 'deploy.execute_deploy_step', { step, node: { uuid: NODE }, ports: [] }, { token: TOKEN, wait: true });
    expect(r.body.command_error).toBeNull();
    expect(r.body.command_result).toMatchObject({ deploy_step: { step: 'write_image' }, deploy_result: { result: expect.stringContaining('image (via-step) written to device /dev/sda') } });
    const table = await sfdiskJson(d.disk);
    expect(table.partitions).toHaveLength(2);
    expect(sha256(await readRange(d.disk, table.partitions[1]!.start * 512, configDriveIso.length))).toBe(sha256(configDriveIso));
  });
});

describe('standby.prepare_image failures', () => {
  it('fails on a checksum mismatch and leaves no valid-looking image behind', async () => {
    const image = await makeImage('bad.img', 'label: dos\nstart=2048, size=20480, type=83\n');
    const d = await deployment();
    const url = await d.serve({ '/bad.img': { data: image } });
    const r = await prepare(d, { id: 'bad', urls: [`${url}/bad.img`], os_hash_algo: 'sha256', os_hash_value: 'ab'.repeat(32) });
    expect(r.command_status).toBe('FAILED');
    expect(r.command_error).toMatchObject({ type: 'ImageChecksumError', message: 'Error verifying image checksum' });
    expect(r.command_error?.details).toContain(`image checksum: ${'ab'.repeat(32)}; verification checksum: ${sha256(image)}`);
    expect((await readRange(d.disk, 0, MIB)).every((b) => b === 0)).toBe(true);
    await expect(run('sfdisk', ['--dump', d.disk])).rejects.toThrow();
  });

  it('refuses an image whose Content-Length exceeds the disk before writing anything', async () => {
    const d = await deployment();
    const marker = Buffer.from('previous disk content');
    await writeFile(d.disk, '');
    const fh = await open(d.disk, 'r+');
    await fh.truncate(8 * 2 ** 30);
    await fh.write(marker, 0, marker.length, 0);
    await fh.close();
    const url = await d.serve({ '/huge.img': { data: Buffer.alloc(0), claimLength: 9 * 2 ** 30 } });
    const r = await prepare(d, { id: 'huge', urls: [`${url}/huge.img`], os_hash_algo: 'sha256', os_hash_value: 'ab'.repeat(32) });
    expect(r.command_status).toBe('FAILED');
    expect(r.command_error?.type).toBe('ImageWriteError');
    expect(r.command_error?.details).toContain(`is ${9 * 2 ** 30} bytes`);
    expect(r.command_error?.details).toContain(`of ${8 * 2 ** 30} bytes; nothing was written`);
    expect((await readRange(d.disk, 0, marker.length)).equals(marker)).toBe(true);
  });

  it('stops an image without Content-Length as soon as it passes the end of the disk', async () => {
    const d = await deployment({ root_device: { name: '/dev/sdb' } });
    const big = Buffer.alloc(100 * MIB, 7);
    const url = await d.serve({ '/big.img': { data: big, chunked: true } });
    const r = await prepare(d, { id: 'big', urls: [`${url}/big.img`], os_hash_algo: 'sha256', os_hash_value: sha256(big) });
    expect(r.command_status).toBe('FAILED');
    expect(r.command_error?.details).toContain(`larger than the disk ${d.small} of ${96 * MIB} bytes`);
    expect((await readRange(d.small, 0, MIB)).every((b) => b === 0)).toBe(true);
  });

  it('reports a 404 naming the URL, and refuses qcow2', async () => {
    const d = await deployment();
    const url = await d.serve({});
    const r = await prepare(d, { id: 'gone', urls: [`${url}/gone.img`], os_hash_algo: 'sha256', os_hash_value: 'ab'.repeat(32) });
    expect(r.command_status).toBe('FAILED');
    expect(r.command_error).toMatchObject({ type: 'ImageDownloadError', message: 'Error downloading image' });
    expect(r.command_error?.details).toContain(`Received status code 404 from ${url}/gone.img`);
    const q = await prepare(d, { id: 'q', urls: [`${url}/q.qcow2`], os_hash_algo: 'sha256', os_hash_value: 'ab'.repeat(32), disk_format: 'qcow2' });
    expect(q.command_status).toBe('FAILED');
    expect(q.command_error?.details).toContain('disk_format qcow2; this agent writes raw images only');
  });
});

describe('clean steps on the disk file', () => {
  it('erase_devices_metadata removes both partition tables; erase_devices zeroes the whole disk', async () => {
    const image = await makeImage('clean.img', 'label: gpt\nstart=2048, size=20480\n');
    const d = await deployment();
    const url = await d.serve({ '/clean.img': { data: image } });
    expect((await prepare(d, { id: 'c', urls: [`${url}/clean.img`], os_hash_algo: 'sha256', os_hash_value: sha256(image) }, configdrive())).command_error).toBeNull();
    const step = (name: string) => command(d.url, 'clean.execute_clean_step', { step: { step: name, priority: 99, interface: 'deploy' }, node: { uuid: NODE }, ports: [], clean_version: { ingot_hardware_manager: '1.0' } }, { token: TOKEN, wait: true });
    const meta = await step('erase_devices_metadata');
    expect(meta.body.command_status).toBe('SUCCEEDED');
    expect(meta.body.command_result).toMatchObject({ clean_result: null, clean_step: { step: 'erase_devices_metadata' } });
    // sgdisk finds neither the primary nor the backup GPT, and sfdisk no partition table at all.
    expect((await run('sgdisk', ['-v', d.disk])).stdout).toContain('Creating new GPT entries in memory.');
    await expect(run('sfdisk', ['--dump', d.disk])).rejects.toThrow();
    expect((await readRange(d.disk, 8 * 2 ** 30 - MIB, MIB)).every((b) => b === 0)).toBe(true);
    const all = await step('erase_devices');
    expect(all.body.command_status).toBe('SUCCEEDED');
    expect((await stat(d.disk)).blocks).toBe(0);
    const mismatch = await command(d.url, 'clean.execute_clean_step', { step: { step: 'erase_devices' }, node: {}, ports: [], clean_version: { other: '9' } }, { token: TOKEN, wait: true });
    expect(mismatch.body.command_status).toBe('CLEAN_VERSION_MISMATCH');
  });
});
