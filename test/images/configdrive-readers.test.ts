/**
 * Config drives read back by real ISO 9660 readers: isoinfo (genisoimage) with Rock Ridge and with
 * Joliet, xorriso (libisofs) extracting the whole tree, pycdlib (what Ironic uses to patch config
 * drives) with Ironic's own lookup path, and blkid (how cloud-init finds the drive by its label).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeConfigDrive, encodeConfigDrive } from '../../src/images/configdrive/decode.js';
import { writeIso9660 } from '../../src/images/configdrive/iso9660.js';
import { configDriveFiles, renderConfigDrive, type ConfigDriveContents } from '../../src/images/configdrive/render.js';
import { FixtureServer } from './fixture-server.js';
import { requireTool, run, runBytes } from './tools.js';

const contents: ConfigDriveContents = {
  meta_data: { hostname: 'node-1.example', public_keys: { default: 'ssh-ed25519 AAAA test' }, availability_zone: 'nova' },
  network_data: { links: [{ id: 'eth0', type: 'phy', ethernet_mac_address: '52:54:00:12:34:56' }], networks: [{ id: 'n0', link: 'eth0', type: 'ipv4_dhcp' }], services: [] },
  user_data: '#cloud-config\nhostname: node-1\nruncmd:\n  - echo "héllo wörld"\n',
  vendor_data: { cloud_init: { note: 'vendor' } },
};
const node = { uuid: '0c5e7a8e-2b8f-4c4e-9a57-8f0f1b7b5e11', name: 'node-1' };

let dir: string;
let isoPath: string;
let files: Map<string, Uint8Array>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ingot-iso-'));
  isoPath = path.join(dir, 'configdrive.iso');
  await writeFile(isoPath, renderConfigDrive(contents, { node }));
  files = configDriveFiles(contents, { node });
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every regular file under `root`, as relative paths. */
async function tree(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await tree(root, p)));
    else out.push(p);
  }
  return out.sort();
}

describe('config drive read by isoinfo', () => {
  it('finds the config-2 label, Joliet and Rock Ridge', () => {
    requireTool('isoinfo');
    const d = run('isoinfo', ['-d', '-i', isoPath]);
    expect(d).toContain('Volume id: config-2');
    expect(d).toContain('Joliet with UCS level 3 found');
    expect(d).toContain('Rock Ridge signatures version 1 found');
    expect(d).toMatch(new RegExp(`Volume size is: ${renderConfigDrive(contents, { node }).length / 2048}\\b`));
  });

  it('lists the exact names with Rock Ridge and with Joliet', () => {
    requireTool('isoinfo');
    for (const mode of ['-R', '-J']) {
      const listing = run('isoinfo', ['-l', mode, '-i', isoPath]);
      for (const version of ['latest', '2012-08-10']) {
        expect(listing).toContain(`Directory listing of /openstack/${version}/`);
      }
      const names = [...listing.matchAll(/\]\s+(\S+)\s*$/gm)].map((m) => m[1]).filter((n) => n !== '.' && n !== '..');
      expect(new Set(names)).toEqual(new Set(['openstack', 'latest', '2012-08-10', 'meta_data.json', 'network_data.json', 'user_data', 'vendor_data2.json']));
    }
    expect(run('isoinfo', ['-l', '-R', '-i', isoPath])).toMatch(/-r--r--r--\s+1\s+0\s+0\s+\d+ .*meta_data\.json/);
  });

  it('extracts each file with the bytes that were written', () => {
    requireTool('isoinfo');
    for (const [p, data] of files) {
      expect(runBytes('isoinfo', ['-R', '-i', isoPath, '-x', `/${p}`]).equals(Buffer.from(data))).toBe(true);
      expect(runBytes('isoinfo', ['-J', '-i', isoPath, '-x', `/${p}`]).equals(Buffer.from(data))).toBe(true);
    }
    const meta = JSON.parse(runBytes('isoinfo', ['-R', '-i', isoPath, '-x', '/openstack/latest/meta_data.json']).toString()) as Record<string, unknown>;
    expect(meta).toMatchObject({ uuid: node.uuid, name: 'node-1', hostname: 'node-1.example' });
  });
});

describe('config drive read by xorriso', () => {
  it('extracts the same tree, without complaints', async () => {
    requireTool('xorriso');
    const out = path.join(dir, 'xorriso-out');
    run('xorriso', ['-abort_on', 'WARNING', '-osirrox', 'on', '-indev', isoPath, '-extract', '/', out]);
    expect(await tree(out)).toEqual([...files.keys()].sort());
    for (const [p, data] of files) expect((await readFile(path.join(out, p))).equals(Buffer.from(data))).toBe(true);
    const pvd = run('xorriso', ['-indev', isoPath, '-pvd_info']);
    expect(pvd).toMatch(/Volume Id\s*:\s*config-2/);
  });
});

describe('config drive read by pycdlib (Ironic’s reader)', () => {
  it('opens the file Ironic patches by its ISO 9660 path, and walks the Rock Ridge and Joliet trees', () => {
    requireTool('pycdlib');
    const script = [
      'import io, json, sys, pycdlib',
      'iso = pycdlib.PyCdlib()',
      'iso.open(sys.argv[1])',
      "out = {'rr': iso.has_rock_ridge(), 'joliet': iso.has_joliet()}",
      "with iso.open_file_from_iso(iso_path='/openstack/latest/network_data.json;1') as f: out['network'] = json.loads(f.read())",
      "out['rr_files'] = sorted(p + '/' + n for p, d, fs in iso.walk(rr_path='/') for n in fs)",
      "out['joliet_files'] = sorted(p + '/' + n for p, d, fs in iso.walk(joliet_path='/') for n in fs)",
      'b = io.BytesIO()',
      "iso.get_file_from_iso_fp(b, rr_path='/openstack/2012-08-10/user_data')",
      "out['user_data'] = b.getvalue().decode('utf-8')",
      'iso.close()',
      'print(json.dumps(out))',
    ].join('\n');
    const out = JSON.parse(run('/usr/bin/python3', ['-c', script, isoPath])) as Record<string, unknown>;
    const expected = [...files.keys()].map((p) => `/${p}`).sort();
    expect(out).toEqual({
      rr: true,
      joliet: true,
      network: contents.network_data,
      rr_files: expected,
      joliet_files: expected,
      user_data: contents.user_data,
    });
  });
});

describe('config drive found by blkid', () => {
  it('is an iso9660 file system labelled config-2, as cloud-init searches', () => {
    requireTool('blkid');
    const out = run('blkid', ['-p', '-o', 'export', isoPath]);
    expect(out).toContain('TYPE=iso9660');
    expect(out).toContain('LABEL=config-2');
  });
});

describe('larger images', () => {
  it('holds binary files over many sectors and directories over several sectors', async () => {
    requireTool('xorriso');
    const many = Array.from({ length: 50 }, (_, i) => ({ path: `openstack/content/file-number-${String(i).padStart(3, '0')}-with-a-long-name`, data: randomBytes(i * 97) }));
    const blob = { path: 'openstack/latest/blob.bin', data: randomBytes(5 * 2048 + 17) };
    const img = path.join(dir, 'big.iso');
    await writeFile(img, writeIso9660({ volumeId: 'config-2', files: [...many, blob] }));
    const out = path.join(dir, 'big-out');
    run('xorriso', ['-abort_on', 'WARNING', '-osirrox', 'on', '-indev', img, '-extract', '/', out]);
    expect(await tree(out)).toEqual([...many, blob].map((f) => f.path).sort());
    for (const f of [...many, blob]) expect((await readFile(path.join(out, f.path))).equals(f.data)).toBe(true);
    expect((await stat(path.join(out, 'openstack/content/file-number-000-with-a-long-name'))).size).toBe(0);
    requireTool('isoinfo');
    expect(runBytes('isoinfo', ['-J', '-i', img, '-x', '/openstack/latest/blob.bin']).equals(blob.data)).toBe(true);
  });
});

describe('config drive from a URL', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = new FixtureServer();
    const iso = renderConfigDrive(contents, { node });
    server
      .route('/cd.b64', { body: encodeConfigDrive(iso) })
      .route('/cd.iso', { body: iso })
      .route('/huge.b64', { body: 'A'.repeat(200_000) });
    await server.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts a gzip+base64 body or the raw image, and both read back with the files', async () => {
    requireTool('isoinfo');
    const a = await decodeConfigDrive(server.url('/cd.b64'));
    const b = await decodeConfigDrive(server.url('/cd.iso'));
    expect(a.source).toBe('url');
    expect(a.image.equals(b.image)).toBe(true);
    const p = path.join(dir, 'from-url.iso');
    await writeFile(p, a.image);
    expect(runBytes('isoinfo', ['-R', '-i', p, '-x', '/openstack/latest/user_data']).toString()).toBe(contents.user_data);
  });

  it('names the URL when the drive cannot be fetched or is too large', async () => {
    await expect(decodeConfigDrive(server.url('/none.iso'))).rejects.toThrow(`Cannot download ${server.url('/none.iso')}: HTTP 404 Not Found`);
    await expect(decodeConfigDrive(server.url('/huge.b64'), { maxBytes: 100_000 })).rejects.toThrow(`The config drive at ${server.url('/huge.b64')} is larger than`);
  });
});
