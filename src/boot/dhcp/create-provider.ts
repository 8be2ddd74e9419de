/** Builds the configured DHCP provider (Ironic's `[dhcp]dhcp_provider`), starting a managed dnsmasq if asked. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DhcpConfig } from '../../config/dhcp.js';
import { fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { renderManagedConfig } from './dnsmasq-config.js';
import { checkDnsmasqPidFile } from './dnsmasq-pid.js';
import { DnsmasqProvider } from './dnsmasq-provider.js';
import { ManagedDnsmasq } from './managed-dnsmasq.js';
import { NoneDhcpProvider } from './none-provider.js';
import type { DhcpProvider } from './provider.js';

/** What the provider needs besides its configuration group. */
export interface DhcpProviderContext {
  /** `database.data_dir`: default home of the host and option directories and of the managed dnsmasq's files. */
  dataDir: string;
  logger?: Logger;
  signal?: AbortSignal;
  /** Every output line of the managed dnsmasq. */
  onDnsmasqOutput?: (line: string) => void;
}

/**
 * The provider of `config.provider`. With `dnsmasq` it reads back the state in the directories; with the
 * PXE filter enabled and no policy recorded yet, unknown MACs start denied (no inspection runs before
 * the conductor's first filter sync); with `managed.enabled` it then starts dnsmasq, which reads every
 * file at start, and `close()` stops it.
 */
export async function createDhcpProvider(config: DhcpConfig, ctx: DhcpProviderContext): Promise<DhcpProvider> {
  const { managed } = config;
  if (config.provider === 'none') {
    if (managed.enabled) throw fail('dhcpManagedNeedsDnsmasq');
    return new NoneDhcpProvider();
  }
  const dhcpDir = path.resolve(ctx.dataDir, 'dhcp');
  // dnsmasq runs with its own working directory: every path it reads is absolute.
  const hostsDir = path.resolve(config.hosts_dir || path.join(dhcpDir, 'hostsdir'));
  const optsDir = path.resolve(config.opts_dir || path.join(dhcpDir, 'optsdir'));
  let dnsmasq: ManagedDnsmasq | undefined;
  if (managed.enabled) {
    if (config.pid_file) throw fail('dhcpPidFileWithManaged');
    for (const key of ['interface', 'range_start', 'range_end'] as const) {
      if (!managed[key]) throw fail('dhcpManagedSettingMissing', { key });
    }
    await mkdir(dhcpDir, { recursive: true, mode: 0o755 });
    dnsmasq = new ManagedDnsmasq({
      dnsmasqPath: config.dnsmasq_path,
      netns: managed.netns,
      configFile: path.join(dhcpDir, 'dnsmasq.conf'),
      config: renderManagedConfig({
        interface: managed.interface, rangeStart: managed.range_start, rangeEnd: managed.range_end, netmask: managed.netmask,
        leaseTimeS: managed.lease_time_s, hostsDir, optsDir, leaseFile: path.join(dhcpDir, 'dnsmasq.leases'), dns: managed.dns,
        routerAdvertisement: managed.router_advertisement, tftpRoot: managed.tftp_root ? path.resolve(managed.tftp_root) : '',
        tftpServer: managed.tftp_server, extraOptions: managed.extra_options,
      }),
      pidFile: path.join(dhcpDir, 'dnsmasq.pid'),
      ...(ctx.logger ? { logger: ctx.logger } : {}),
      ...(ctx.onDnsmasqOutput ? { onLine: ctx.onDnsmasqOutput } : {}),
    });
  }
  const pidFile = config.pid_file;
  let started = false;
  const provider = await DnsmasqProvider.open({
    hostsDir,
    optsDir,
    filterEnabled: config.inspection_filter.enabled,
    ...(ctx.logger ? { logger: ctx.logger } : {}),
    ...(dnsmasq
      ? { checkAlive: () => (started ? dnsmasq.check() : undefined), onClose: () => dnsmasq.close() }
      : pidFile ? { checkAlive: () => checkDnsmasqPidFile(pidFile) } : {}),
  });
  try {
    if (config.inspection_filter.enabled && !provider.unknownPolicy) await provider.filter.setUnknownPolicy('deny');
    await dnsmasq?.start(ctx.signal);
    started = true;
  } catch (err) {
    await provider.close();
    throw err;
  }
  return provider;
}
