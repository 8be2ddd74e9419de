/**
 * The dnsmasq DHCP provider against a real dnsmasq: Ingot's managed dnsmasq serves a veth end in one
 * network namespace, a real DHCP client (busybox udhcpc) asks from another namespace with chosen MACs,
 * and the test checks what the client is handed: an address in the range, the boot file and next
 * server the provider wrote for that MAC, or no answer at all when the PXE filter ignores the MAC.
 * Traffic stays inside the two namespaces the test creates.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pxeBootOptions } from '../../src/boot/dhcp/boot-options.js';
import { createDhcpProvider } from '../../src/boot/dhcp/create-provider.js';
import { hostFileName, UNKNOWN_HOSTS_FILE } from '../../src/boot/dhcp/dnsmasq-lines.js';
import { processCommandLine } from '../../src/boot/dhcp/dnsmasq-pid.js';
import type { DhcpProvider } from '../../src/boot/dhcp/provider.js';
import { DhcpConfig } from '../../src/config/dhcp.js';
import { NetnsLab, requireLabTools } from '../support/netns.js';

const DNSMASQ = '/usr/sbin/dnsmasq';
const SUBNET = '10.213.7';
const SERVER = `${SUBNET}.1`;
const TFTP = `${SUBNET}.5`;
const NODE_A = { uuid: 'aaaaaaaa-0000-4000-8000-00000000000a' };
const NODE_B = { uuid: 'bbbbbbbb-0000-4000-8000-00000000000b' };
const MAC_A = '52:54:00:d1:00:0a';
const MAC_B = '52:54:00:d1:00:0b';
const MAC_UNKNOWN = '52:54:00:d1:00:0c';
const BOOT_A = pxeBootOptions({ tftpServer: TFTP, biosBootFile: 'undionly.kpxe', uefiBootFile: 'snponly.efi', ipxeScriptUrl: `http://${SERVER}:8080/boot.ipxe` });
/** udhcpc -x values: option 93 client architecture 7 (EFI BC), option 77 user class "iPXE". */
const UEFI = ['-x', '0x5d:0007'];
const IPXE = ['-x', '0x4d:69505845'];

let lab: NetnsLab | undefined;
let dir: string | undefined;
let provider: DhcpProvider | undefined;
let clientNs: string;
let clientIf: string;
let script: string;
let hostsDir: string;
let optsDir: string;
let dnsmasqPid: number;
const dnsmasqLines: string[] = [];

/** What udhcpc handed its script on `bound`, or undefined when no server answered. */
async function dhcp(mac: string, extra: string[] = []): Promise<Record<string, string> | undefined> {
  lab!.ip(clientNs, 'link', 'set', clientIf, 'address', mac);
  // -n: give up after -t 2 discovers -T 1 s apart; -q: exit once bound; -f: foreground.
  const r = await lab!.exec(clientNs, 'busybox', ['udhcpc', '-i', clientIf, '-f', '-n', '-q', '-t', '2', '-T', '1', '-s', script, ...extra]);
  const bound = r.stdout.split('EVENT=bound\n')[1];
  if (r.code !== 0 || bound === undefined) {
    expect(r.stdout + r.stderr, 'udhcpc failed for another reason than getting no lease').toContain('no lease');
    return undefined;
  }
  return Object.fromEntries(bound.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** Runs `change` and waits until dnsmasq has read each of `files` again (it logs "read <file>"). */
async function whenRead(files: string[], change: () => Promise<void>): Promise<void> {
  const reads = (file: string) => dnsmasqLines.filter((l) => l.endsWith(`read ${file}`)).length;
  const before = files.map(reads);
  await change();
  for (let waited = 0; !files.every((f, i) => reads(f) > before[i]!); waited += 20) {
    if (waited > 5000) throw new Error(`dnsmasq did not read ${files.join(', ')}:\n${dnsmasqLines.slice(-10).join('\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const hostFile = (mac: string) => path.join(hostsDir, hostFileName(mac));

function inRange(ip: string | undefined): boolean {
  const m = /^10\.213\.7\.(\d+)$/.exec(ip ?? '');
  return !!m && Number(m[1]) >= 100 && Number(m[1]) <= 150;
}

beforeAll(async () => {
  requireLabTools([
    { path: '/usr/sbin/ip', hint: 'apt-get install -y iproute2' },
    { path: DNSMASQ, hint: 'apt-get install -y dnsmasq-base' },
    { path: '/bin/busybox', hint: 'apt-get install -y busybox-static (the test runs `busybox udhcpc`)' },
  ]);
  lab = new NetnsLab('ingot-dhcp');
  const serverNs = lab.namespace('srv');
  clientNs = lab.namespace('cli');
  const serverIf = `igd${process.pid % 100000}s`;
  clientIf = `igd${process.pid % 100000}c`;
  lab.veth(serverNs, serverIf, clientNs, clientIf);
  lab.ip(serverNs, 'addr', 'add', `${SERVER}/24`, 'dev', serverIf);

  dir = await mkdtemp(path.join(tmpdir(), 'ingot-dhcp-netns-'));
  hostsDir = path.join(dir, 'hostsdir');
  optsDir = path.join(dir, 'optsdir');
  script = path.join(dir, 'udhcpc-script.sh');
  await writeFile(script, '#!/bin/sh\necho "EVENT=$1"\n[ "$1" = bound ] && env | sort\nexit 0\n');
  await chmod(script, 0o755);

  const config = Value.Default(DhcpConfig, {
    provider: 'dnsmasq', hosts_dir: hostsDir, opts_dir: optsDir, dnsmasq_path: DNSMASQ,
    managed: { enabled: true, interface: serverIf, netns: serverNs, range_start: `${SUBNET}.100`, range_end: `${SUBNET}.150`, lease_time_s: 600 },
    inspection_filter: { enabled: true },
  }) as DhcpConfig;
  provider = await createDhcpProvider(config, { dataDir: dir, onDnsmasqOutput: (l) => dnsmasqLines.push(l) });
  dnsmasqPid = Number(await readFile(path.join(dir, 'dhcp', 'dnsmasq.pid'), 'utf8'));
  // Besides the provider's own hook: dnsmasq must not outlive a test process that dies mid-run.
  process.once('exit', killDnsmasq);

  await whenRead([hostFile(MAC_A)], () => provider!.updatePortOptions(NODE_A, [{ address: MAC_A, pxe_enabled: true }], BOOT_A));
  await whenRead([hostFile(MAC_B)], () => provider!.filter.deny([MAC_B]));
});

function killDnsmasq(): void {
  try {
    if (dnsmasqPid) process.kill(dnsmasqPid, 'SIGKILL');
  } catch {
    // already gone
  }
}

afterAll(async () => {
  try {
    await provider?.close();
  } finally {
    process.off('exit', killDnsmasq);
    lab?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
});

describe('dnsmasq provider with a real dnsmasq in a network namespace', () => {
  it('runs dnsmasq inside the server namespace with the generated configuration', async () => {
    expect(await processCommandLine(dnsmasqPid)).toEqual([DNSMASQ, '--no-daemon', `--conf-file=${path.join(dir!, 'dhcp', 'dnsmasq.conf')}`]);
    expect(dnsmasqLines.join('\n')).toMatch(/DHCP, IP range 10\.213\.7\.100 -- 10\.213\.7\.150/);
  });

  it('hands a MAC with node options an address in the range and the boot file for its firmware', async () => {
    const bios = await dhcp(MAC_A);
    expect(inRange(bios?.ip), JSON.stringify(bios)).toBe(true);
    expect(bios).toMatchObject({ boot_file: 'undionly.kpxe', siaddr: TFTP, subnet: '255.255.255.0', serverid: SERVER });
    expect(await dhcp(MAC_A, UEFI)).toMatchObject({ boot_file: 'snponly.efi', siaddr: TFTP });
    expect(await dhcp(MAC_A, IPXE)).toMatchObject({ boot_file: `http://${SERVER}:8080/boot.ipxe` });
    expect(await dhcp(MAC_A, [...IPXE, ...UEFI])).toMatchObject({ boot_file: `http://${SERVER}:8080/boot.ipxe` });
  });

  it('sends options 66 and 67 as options to a client that asks for them', async () => {
    expect(await dhcp(MAC_A, ['-O', '66', '-O', '67'])).toMatchObject({ tftp: TFTP, bootfile: 'undionly.kpxe' });
  });

  it('ignores a MAC the PXE filter denies, and answers it once allowed', async () => {
    expect(await dhcp(MAC_B)).toBeUndefined();
    await whenRead([hostFile(MAC_B)], () => provider!.filter.allow([MAC_B]));
    const lease = await dhcp(MAC_B);
    expect(inRange(lease?.ip), JSON.stringify(lease)).toBe(true);
    expect(lease?.boot_file).toBeUndefined();
  });

  it('answers unknown MACs only while the unknown policy allows them', async () => {
    const wildcard = path.join(hostsDir, UNKNOWN_HOSTS_FILE);
    expect(await dhcp(MAC_UNKNOWN)).toBeUndefined();
    await whenRead([wildcard], () => provider!.filter.setUnknownPolicy('allow'));
    expect(inRange((await dhcp(MAC_UNKNOWN))?.ip)).toBe(true);
    await whenRead([wildcard], () => provider!.filter.setUnknownPolicy('deny'));
    expect(await dhcp(MAC_UNKNOWN)).toBeUndefined();
  });

  it('serves a denied MAC that gets node options, and ignores it again once they are cleaned', async () => {
    await whenRead([hostFile(MAC_B)], () => provider!.filter.deny([MAC_B]));
    expect(await dhcp(MAC_B)).toBeUndefined();
    await whenRead([hostFile(MAC_B)], () => provider!.updatePortOptions(NODE_B, [{ address: MAC_B, pxe_enabled: true }], pxeBootOptions({ tftpServer: TFTP, biosBootFile: 'pxelinux.0' })));
    expect(await dhcp(MAC_B)).toMatchObject({ boot_file: 'pxelinux.0', siaddr: TFTP });
    await whenRead([hostFile(MAC_B)], () => provider!.cleanPortOptions([{ address: MAC_B, pxe_enabled: true }]));
    expect(await dhcp(MAC_B)).toBeUndefined();
  });

  it('takes changed options without a restart or reload of dnsmasq', async () => {
    await whenRead([hostFile(MAC_A)], () => provider!.updatePortOptions(NODE_A, [{ address: MAC_A, pxe_enabled: true }], pxeBootOptions({ tftpServer: SERVER, biosBootFile: 'ipxe.pxe' })));
    expect(await dhcp(MAC_A)).toMatchObject({ boot_file: 'ipxe.pxe', siaddr: SERVER });
    // The iPXE option of the old tag must not linger for this MAC either.
    expect(await dhcp(MAC_A, IPXE)).toMatchObject({ boot_file: 'ipxe.pxe' });
    expect(await processCommandLine(dnsmasqPid)).toContain(DNSMASQ);
    expect(dnsmasqLines.filter((l) => /started, version/.test(l))).toHaveLength(1);
  });

  it('stops dnsmasq by its PID on close', async () => {
    await provider!.close();
    expect(await processCommandLine(dnsmasqPid)).toBeUndefined();
  });
});
