import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IngotError } from '../../shared/errors.js';
import { DnsmasqProvider, type DnsmasqProviderOptions } from './dnsmasq-provider.js';
import { dhcpProviderConformance } from './provider.case.js';
import type { DhcpOption } from './provider.js';

const NODE_A = { uuid: 'aaaaaaaa-0000-4000-8000-000000000001' };
const NODE_B = { uuid: 'bbbbbbbb-0000-4000-8000-000000000002' };
const A1 = '52:54:00:00:00:a1';
const A2 = '52:54:00:00:00:a2';
const B1 = '52:54:00:00:00:b1';
const port = (address: string, pxe_enabled = true) => ({ address, pxe_enabled });
const BOOT: DhcpOption[] = [
  { option: 67, value: 'undionly.kpxe', tags: ['!ipxe'] },
  { option: 67, value: 'http://10.0.0.1:8080/boot.ipxe', tags: ['ipxe'] },
  { option: 'server-ip-address', value: '10.0.0.1' },
];

let root: string;
let hostsDir: string;
let optsDir: string;
let counter = 0;
const opened: DnsmasqProvider[] = [];

async function open(extra: Partial<DnsmasqProviderOptions> = {}): Promise<DnsmasqProvider> {
  const p = await DnsmasqProvider.open({ hostsDir, optsDir, filterEnabled: true, randomSuffix: () => String(++counter).padStart(8, '0'), ...extra });
  opened.push(p);
  return p;
}
const host = (mac: string) => readFile(path.join(hostsDir, `ingot-${mac.replace(/:/g, '-')}.conf`), 'utf8');
const entry = async (mac: string) => (await host(mac)).split('\n')[1];
const opts = async () => (await readdir(optsDir)).sort();
const unknownFile = () => readFile(path.join(hostsDir, 'ingot-unknown-hosts.conf'), 'utf8');

beforeEach(async () => {
  counter = 0;
  root = await mkdtemp(path.join(tmpdir(), 'ingot-dnsmasq-'));
  hostsDir = path.join(root, 'hostsdir');
  optsDir = path.join(root, 'optsdir');
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
  await rm(root, { recursive: true, force: true });
});

dhcpProviderConformance('dnsmasq', () => open());
dhcpProviderConformance('dnsmasq without the PXE filter', () => open({ filterEnabled: false }));

describe('dnsmasq provider: node options', () => {
  it('writes the options under a node tag and tags each PXE-enabled MAC with it', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port('52-54-00-00-00-A1'), port(A2, false)], BOOT);
    const tag = `ingot-${NODE_A.uuid}-00000001`;
    expect(await opts()).toEqual([`${tag}.conf`]);
    expect(await readFile(path.join(optsDir, `${tag}.conf`), 'utf8')).toBe(
      `# ingot: node=${NODE_A.uuid} tag=${tag}\n` +
      `tag:${tag},tag:!ipxe,67,undionly.kpxe\ntag:${tag},tag:ipxe,67,http://10.0.0.1:8080/boot.ipxe\ntag:${tag},option:server-ip-address,10.0.0.1\n`,
    );
    expect(await host(A1)).toBe(`# ingot: node=${NODE_A.uuid} tag=${tag} filter=none\n${A1},set:${tag},set:ingot\n`);
    await expect(host(A2)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(p.tagOf(A1)).toBe(tag);
  });

  it('moves changed options to a new tag and deletes the old option file', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port(A1), port(A2)], BOOT);
    await p.updatePortOptions(NODE_A, [port(A1), port(A2)], [{ option: 67, value: 'pxelinux.0' }]);
    const tag = `ingot-${NODE_A.uuid}-00000002`;
    expect(await opts()).toEqual([`${tag}.conf`]);
    expect(await entry(A1)).toBe(`${A1},set:${tag},set:ingot`);
    expect(await entry(A2)).toBe(`${A2},set:${tag},set:ingot`);
  });

  it('keeps an option file while a port still uses it', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port(A1), port(A2)], BOOT);
    await p.updatePortOptions(NODE_A, [port(A1)], BOOT);
    expect(await opts()).toEqual([`ingot-${NODE_A.uuid}-00000001.conf`, `ingot-${NODE_A.uuid}-00000002.conf`]);
    await p.cleanPortOptions([port(A2, false)]);
    expect(await opts()).toEqual([`ingot-${NODE_A.uuid}-00000002.conf`]);
  });

  it('on clean, leaves the MAC to the filter: answered without options, or ignored when denied', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port(A1), port(A2)], BOOT);
    await p.filter.deny([A2]);
    expect(await entry(A2)).toMatch(/,set:ingot-/); // node options win over the filter
    await p.cleanPortOptions([port(A1), port(A2)]);
    expect(await entry(A1)).toBe(A1);
    expect(await entry(A2)).toBe(`${A2},ignore`);
    expect(await opts()).toEqual([]);
  });

  it('writes nothing for a node without PXE-enabled ports or a clean of MACs it never saw', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port(A1, false)], BOOT);
    await p.cleanPortOptions([port(B1)]);
    expect(await readdir(hostsDir)).toEqual([]);
    expect(await opts()).toEqual([]);
  });

  it('checks all input before writing anything', async () => {
    const p = await open();
    await expect(p.updatePortOptions(NODE_A, [port(A1)], [...BOOT, { option: 67, value: 'x\ny' }])).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(p.updatePortOptions(NODE_A, [port(A1), port('bad')], BOOT)).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    expect(await readdir(hostsDir)).toEqual([]);
    expect(await opts()).toEqual([]);
  });

  it('serializes concurrent changes: the last one wins and no option file is left over', async () => {
    const p = await open();
    await Promise.all(Array.from({ length: 20 }, (_, i) => p.updatePortOptions(i % 2 ? NODE_A : NODE_B, [port(A1), port(B1)], [{ option: 67, value: `f${i}` }])));
    const last = `ingot-${NODE_A.uuid}-00000020`;
    expect(await opts()).toEqual([`${last}.conf`]);
    expect(await entry(A1)).toBe(`${A1},set:${last},set:ingot`);
    expect(await entry(B1)).toBe(`${B1},set:${last},set:ingot`);
    expect((await readdir(hostsDir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('dnsmasq provider: PXE filter', () => {
  it('ignores denied MACs and answers allowed ones', async () => {
    const p = await open();
    await p.filter.deny([A1, B1]);
    await p.filter.allow([B1]);
    expect(await entry(A1)).toBe(`${A1},ignore`);
    expect(await entry(B1)).toBe(B1);
    expect(await host(B1)).toContain('filter=allow');
  });

  it('writes the wildcard entry, and MACs it forgot follow it', async () => {
    const p = await open();
    await p.updatePortOptions(NODE_A, [port(A1)], BOOT);
    await p.cleanPortOptions([port(A1)]);
    await p.filter.setUnknownPolicy('deny');
    expect(await unknownFile()).toBe('# ingot: unknown=deny\n*:*:*:*:*:*,ignore\n');
    expect(await entry(A1)).toBe(`${A1},ignore`);
    await p.filter.setUnknownPolicy('allow');
    expect(await unknownFile()).toBe('# ingot: unknown=allow\n*:*:*:*:*:*\n');
    expect(await entry(A1)).toBe(A1);
  });

  it('syncs to a complete state: formerly listed MACs follow the unknown policy', async () => {
    const p = await open();
    await p.filter.allow([A1]);
    await p.filter.deny([A2]);
    await p.filter.sync({ allow: [B1], deny: ['52:54:00:00:00:C1', B1], unknown: 'deny' });
    expect(await entry(B1)).toBe(`${B1},ignore`); // listed in both: denied
    expect(await entry('52:54:00:00:00:c1')).toBe('52:54:00:00:00:c1,ignore');
    expect(await host(A1)).toContain(`filter=none\n${A1},ignore`);
    expect(await host(A2)).toContain(`filter=none\n${A2},ignore`);
    await p.filter.sync({ allow: [], deny: [], unknown: 'allow' });
    for (const mac of [A1, A2, B1]) expect(await entry(mac)).toBe(mac);
  });

  it('does not rewrite files whose text would not change', async () => {
    const p = await open();
    await p.filter.deny([A1]);
    const before = await stat(path.join(hostsDir, 'ingot-52-54-00-00-00-a1.conf'));
    await p.filter.deny([A1]);
    await p.filter.setUnknownPolicy('allow');
    await p.filter.setUnknownPolicy('allow');
    const after = await stat(path.join(hostsDir, 'ingot-52-54-00-00-00-a1.conf'));
    expect(after.ino).toBe(before.ino);
  });

  it('does nothing when the filter is disabled', async () => {
    const p = await open({ filterEnabled: false });
    await p.filter.deny([A1]);
    await p.filter.setUnknownPolicy('deny');
    await p.filter.sync({ allow: [], deny: [A2], unknown: 'deny' });
    expect(await readdir(hostsDir)).toEqual([]);
  });
});

describe('dnsmasq provider: restart', () => {
  it('reads back its state: a new instance replaces the old tag and keeps the filter', async () => {
    const first = await open();
    await first.updatePortOptions(NODE_A, [port(A1)], BOOT);
    await first.filter.deny([A1, A2]);
    await first.filter.setUnknownPolicy('allow');
    await first.close();
    const second = await open();
    expect(second.tagOf(A1)).toBe(`ingot-${NODE_A.uuid}-00000001`);
    expect(second.unknownPolicy).toBe('allow');
    await second.cleanPortOptions([port(A1)]);
    expect(await entry(A1)).toBe(`${A1},ignore`);
    expect(await opts()).toEqual([]);
  });

  it('removes its own leftover temporary files and option files no host uses', async () => {
    const first = await open();
    await first.updatePortOptions(NODE_A, [port(A1)], BOOT);
    await first.close();
    await writeFile(path.join(hostsDir, '.ingot-52-54-00-00-00-a1.conf.1.ab.tmp'), 'half');
    await writeFile(path.join(optsDir, 'ingot-orphan-00000009.conf'), 'tag:ingot-orphan-00000009,67,x\n');
    await writeFile(path.join(optsDir, 'operator.conf'), 'tag:mine,67,x\n');
    await open();
    expect((await readdir(hostsDir)).sort()).toEqual(['ingot-52-54-00-00-00-a1.conf']);
    expect(await opts()).toEqual([`ingot-${NODE_A.uuid}-00000001.conf`, 'operator.conf']);
  });

  it('with the filter now disabled, stops ignoring MACs because of it', async () => {
    const first = await open();
    await first.filter.deny([A1]);
    await first.filter.setUnknownPolicy('deny');
    await first.close();
    await open({ filterEnabled: false });
    expect(await entry(A1)).toBe(A1);
    expect(await unknownFile()).toContain('*:*:*:*:*:*\n');
    expect(await unknownFile()).not.toContain('ignore');
  });

  it('refuses one directory for both hosts and options', async () => {
    await expect(DnsmasqProvider.open({ hostsDir, optsDir: `${hostsDir}/`, filterEnabled: false })).rejects.toMatchObject({ name: 'ConfigInvalid' });
  });
});

describe('dnsmasq provider: a dnsmasq that is down', () => {
  it('writes the change, then fails with the liveness check error', async () => {
    let up = true;
    const p = await open({ checkAlive: () => { if (!up) throw new IngotError('DriverOperationError', 'dnsmasq is not running'); } });
    await p.updatePortOptions(NODE_A, [port(A1)], BOOT);
    up = false;
    await expect(p.updatePortOptions(NODE_B, [port(B1)], BOOT)).rejects.toMatchObject({ name: 'DriverOperationError' });
    expect(await entry(B1)).toMatch(/set:ingot-bbbbbbbb/);
    await expect(p.filter.deny([A2])).rejects.toMatchObject({ name: 'DriverOperationError' });
    await expect(p.cleanPortOptions([port(A1)])).rejects.toMatchObject({ name: 'DriverOperationError' });
  });

  it('refuses changes after close and runs onClose once', async () => {
    let closes = 0;
    const p = await open({ onClose: async () => void closes++ });
    await p.close();
    await p.close();
    expect(closes).toBe(1);
    await expect(p.updatePortOptions(NODE_A, [port(A1)], BOOT)).rejects.toMatchObject({ name: 'DriverOperationError' });
  });
});
