import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DhcpConfig } from '../../config/dhcp.js';
import { createDhcpProvider } from './create-provider.js';
import { processCommandLine } from './dnsmasq-pid.js';
import type { DhcpProvider } from './provider.js';

let dataDir: string;
const providers: DhcpProvider[] = [];
const PORT = { address: '52:54:00:00:00:01', pxe_enabled: true };
const NODE = { uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' };

function config(raw: Record<string, unknown>): DhcpConfig {
  const value = Value.Default(DhcpConfig, structuredClone(raw)) as DhcpConfig;
  expect([...Value.Errors(DhcpConfig, value)]).toEqual([]);
  return value;
}
async function create(raw: Record<string, unknown>): Promise<DhcpProvider> {
  const p = await createDhcpProvider(config(raw), { dataDir });
  providers.push(p);
  return p;
}

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ingot-dhcp-'));
});
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await rm(dataDir, { recursive: true, force: true });
});

describe('createDhcpProvider', () => {
  it('defaults to none, which writes nothing', async () => {
    const p = await create({});
    expect(p.name).toBe('none');
    await p.updatePortOptions(NODE, [PORT], [{ option: 67, value: 'x' }]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('refuses a managed dnsmasq without the dnsmasq provider, or without interface and range', async () => {
    await expect(create({ managed: { enabled: true } })).rejects.toMatchObject({ name: 'ConfigInvalid', message: expect.stringContaining('dhcp.provider') });
    await expect(create({ provider: 'dnsmasq', managed: { enabled: true } })).rejects.toMatchObject({ name: 'ConfigInvalid', message: expect.stringContaining('dhcp.managed.interface') });
    await expect(create({ provider: 'dnsmasq', pid_file: '/run/dnsmasq.pid', managed: { enabled: true, interface: 'eth0', range_start: '10.0.0.10', range_end: '10.0.0.20' } }))
      .rejects.toMatchObject({ name: 'ConfigInvalid', message: expect.stringContaining('dhcp.pid_file') });
  });

  it('keeps the dnsmasq directories in the data directory unless told otherwise', async () => {
    const p = await create({ provider: 'dnsmasq' });
    await p.updatePortOptions(NODE, [PORT], [{ option: 67, value: 'x' }]);
    expect(await readdir(path.join(dataDir, 'dhcp', 'hostsdir'))).toEqual(['ingot-52-54-00-00-00-01.conf']);
    expect(await readdir(path.join(dataDir, 'dhcp', 'optsdir'))).toHaveLength(1);
  });

  it('with the PXE filter, starts with unknown MACs denied, and keeps a recorded policy', async () => {
    const raw = { provider: 'dnsmasq', inspection_filter: { enabled: true } };
    const unknown = () => readFile(path.join(dataDir, 'dhcp', 'hostsdir', 'ingot-unknown-hosts.conf'), 'utf8');
    const p = await create(raw);
    expect(await unknown()).toContain('*:*:*:*:*:*,ignore');
    await p.filter.setUnknownPolicy('allow');
    await p.close();
    await create(raw);
    expect(await unknown()).not.toContain('ignore');
  });

  it('fails changes clearly when the operator\'s dnsmasq is not running', async () => {
    const p = await create({ provider: 'dnsmasq', pid_file: path.join(dataDir, 'dnsmasq.pid') });
    await expect(p.updatePortOptions(NODE, [PORT], [{ option: 67, value: 'x' }])).rejects.toMatchObject({
      name: 'DriverOperationError', message: expect.stringContaining('dnsmasq is not running'),
    });
  });

  it('starts a managed dnsmasq on the written configuration and stops it on close', async () => {
    const fake = path.join(dataDir, 'fake-dnsmasq');
    await writeFile(fake, `#!${process.execPath}\nconsole.error('dnsmasq-dhcp: DHCP, sockets bound exclusively to interface prov0'); setInterval(() => {}, 1000);\n`);
    await chmod(fake, 0o755);
    const p = await create({
      provider: 'dnsmasq', dnsmasq_path: fake, inspection_filter: { enabled: true },
      managed: { enabled: true, interface: 'prov0', range_start: '10.1.0.10', range_end: '10.1.0.20', tftp_server: '10.1.0.1' },
    });
    const conf = await readFile(path.join(dataDir, 'dhcp', 'dnsmasq.conf'), 'utf8');
    expect(conf).toContain(`dhcp-hostsdir=${path.join(dataDir, 'dhcp', 'hostsdir')}\n`);
    expect(conf).toContain('interface=prov0\n');
    expect(conf).toContain('dhcp-option=66,10.1.0.1\n');
    await p.updatePortOptions(NODE, [PORT], [{ option: 67, value: 'x' }]);
    const pid = Number(await readFile(path.join(dataDir, 'dhcp', 'dnsmasq.pid'), 'utf8'));
    expect(await processCommandLine(pid)).toContain(fake);
    await p.close();
    expect(await processCommandLine(pid)).toBeUndefined();
  });
});
