/**
 * The `dnsmasq` DHCP provider: keeps one host file per MAC in dnsmasq's `dhcp-hostsdir` and one option
 * file per node tag in its `dhcp-optsdir` (Ironic's `ironic/dhcp/dnsmasq.py` plus the PXE filter of
 * `ironic/pxe_filter/dnsmasq.py`, over the same host files so one dnsmasq does both).
 *
 * NOTE: dnsmasq never needs a reload here, and Ingot never sends it SIGHUP. It reads new and renamed
 * files in both directories by inotify (dnsmasq(8), --dhcp-hostsdir/--dhcp-optsdir), and a rewritten
 * host file replaces that MAC's entry (measured with dnsmasq 2.90). What inotify cannot do is forget:
 * entries of deleted files, and options of rewritten option files, stay until a SIGHUP. So host files
 * are rewritten and never deleted, and changed options go to a fresh tag. A SIGHUP is also unsafe:
 * dnsmasq 2.90 (Debian 12) segfaults on SIGHUP once it has leased an address to a host entry with a
 * `set:` tag (reproduced: the first SIGHUP after such a lease kills it; reported upstream for 2.86
 * as a crash in dhcp_netid_free on reload).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { isTemporaryName, writeFileAtomic } from './atomic-write.js';
import {
  type FilterMark, type HostState, hostFileName, macOfHostFile, nodeTag, parseHostFile, parseUnknownHostsFile, renderHostFile,
  renderOptsFile, renderUnknownHostsFile, tagOfOptsFile, UNKNOWN_HOSTS_FILE,
} from './dnsmasq-lines.js';
import { ETHERNET_MAC, normalizeMac, normalizeMacs } from '../../shared/mac.js';
import type { DhcpNode, DhcpOption, DhcpPort, DhcpProvider, FilterState, PxeFilter, UnknownPolicy } from './provider.js';

/** How to open a {@link DnsmasqProvider}. */
export interface DnsmasqProviderOptions {
  /** dnsmasq's `dhcp-hostsdir` (created when missing). */
  hostsDir: string;
  /** dnsmasq's `dhcp-optsdir` (created when missing); must differ from hostsDir. */
  optsDir: string;
  /** Whether the PXE filter operations act; when false they do nothing and old filter marks are dropped. */
  filterEnabled: boolean;
  /** Throws DriverOperationError when the dnsmasq reading the directories is not running; run after every change. */
  checkAlive?: () => void | Promise<void>;
  /** Runs last in close() (stops a managed dnsmasq). */
  onClose?: () => Promise<void>;
  logger?: Logger;
  /** Tag suffixes (tests); default 8 random hex digits. */
  randomSuffix?: () => string;
}

const WRITE_PARALLELISM = 16;

/** The dnsmasq provider; create it with {@link DnsmasqProvider.open}. */
export class DnsmasqProvider implements DhcpProvider {
  readonly name = 'dnsmasq' as const;
  readonly filter: PxeFilter;
  private readonly hosts = new Map<string, HostState>();
  /** Text last written to each MAC's host file, to skip rewrites that change nothing. */
  private readonly written = new Map<string, string>();
  private readonly optsTags = new Set<string>();
  private unknown: UnknownPolicy | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(private readonly opts: DnsmasqProviderOptions) {
    this.filter = {
      allow: (macs) => this.mark(macs, 'allow'),
      deny: (macs) => this.mark(macs, 'deny'),
      setUnknownPolicy: (policy) => this.setUnknown(policy),
      sync: (state) => this.sync(state),
    };
  }

  /**
   * Creates the directories when missing and reads back the state a previous run left in them, so
   * the entries dnsmasq already holds stay consistent with what this instance writes next.
   */
  static async open(opts: DnsmasqProviderOptions): Promise<DnsmasqProvider> {
    if (path.resolve(opts.hostsDir) === path.resolve(opts.optsDir)) {
      throw fail('dhcpDirsSame', { dir: opts.hostsDir });
    }
    const provider = new DnsmasqProvider(opts);
    await provider.load();
    return provider;
  }

  /** The host file of `mac` (for operators and tests). */
  hostFile(mac: string): string {
    return path.join(this.opts.hostsDir, hostFileName(normalizeMac(mac, ETHERNET_MAC)));
  }

  /** The option file of `tag`. */
  optsFile(tag: string): string {
    return path.join(this.opts.optsDir, `${tag}.conf`);
  }

  /** What the filter does with MACs it holds nothing for; null while no policy was ever set. */
  get unknownPolicy(): UnknownPolicy | null {
    return this.unknown;
  }

  /** The tag a MAC's node options are under, if any (for operators and tests). */
  tagOf(mac: string): string | undefined {
    return this.hosts.get(normalizeMac(mac, ETHERNET_MAC))?.tag ?? undefined;
  }

  async updatePortOptions(node: DhcpNode, ports: readonly DhcpPort[], options: readonly DhcpOption[]): Promise<void> {
    const macs = normalizeMacs(ports.filter((p) => p.pxe_enabled).map((p) => p.address), ETHERNET_MAC);
    const tag = nodeTag(node.uuid, this.opts.randomSuffix?.() ?? randomBytes(4).toString('hex'));
    const text = renderOptsFile(node.uuid, tag, options);
    return this.run(async () => {
      if (macs.length === 0) return;
      // Options first: a host entry never names a tag whose options dnsmasq has not been given.
      await writeFileAtomic(this.optsFile(tag), text);
      this.optsTags.add(tag);
      for (const mac of macs) {
        const prev = this.hosts.get(mac);
        this.hosts.set(mac, { mac, node: node.uuid, tag, filter: prev?.filter ?? 'none' });
      }
      await this.flush(macs);
      await this.dropUnusedOpts();
      await this.opts.checkAlive?.();
      this.opts.logger?.debug({ node: node.uuid, macs, tag }, 'dhcp: options written');
    });
  }

  async cleanPortOptions(ports: readonly DhcpPort[]): Promise<void> {
    const macs = normalizeMacs(ports.map((p) => p.address), ETHERNET_MAC);
    return this.run(async () => {
      const changed = macs.filter((mac) => this.hosts.get(mac)?.tag);
      for (const mac of changed) this.hosts.set(mac, { ...this.hosts.get(mac)!, node: null, tag: null });
      if (changed.length === 0) return;
      await this.flush(changed);
      await this.dropUnusedOpts();
      await this.opts.checkAlive?.();
      this.opts.logger?.debug({ macs: changed }, 'dhcp: options cleaned');
    });
  }

  close(): Promise<void> {
    if (this.closed) return this.queue.then(() => undefined, () => undefined);
    this.closed = true;
    this.queue = this.queue.catch(() => undefined).then(() => this.opts.onClose?.());
    return this.queue.then(() => undefined);
  }

  private async mark(macs: Iterable<string>, filter: 'allow' | 'deny'): Promise<void> {
    const list = normalizeMacs(macs, ETHERNET_MAC);
    return this.run(async () => {
      if (!this.opts.filterEnabled) return;
      for (const mac of list) this.hosts.set(mac, { ...(this.hosts.get(mac) ?? { mac, node: null, tag: null }), filter });
      if (await this.flush(list)) await this.opts.checkAlive?.();
    });
  }

  private async setUnknown(policy: UnknownPolicy): Promise<void> {
    checkPolicy(policy);
    return this.run(async () => {
      if (!this.opts.filterEnabled) return;
      if (await this.applyUnknown(policy)) await this.opts.checkAlive?.();
    });
  }

  private async sync(state: FilterState): Promise<void> {
    const allow = new Set(normalizeMacs(state.allow, ETHERNET_MAC));
    const deny = new Set(normalizeMacs(state.deny, ETHERNET_MAC));
    checkPolicy(state.unknown);
    return this.run(async () => {
      if (!this.opts.filterEnabled) return;
      const markOf = (mac: string): FilterMark => (deny.has(mac) ? 'deny' : allow.has(mac) ? 'allow' : 'none');
      for (const mac of new Set([...allow, ...deny])) if (!this.hosts.has(mac)) this.hosts.set(mac, { mac, node: null, tag: null, filter: 'none' });
      for (const [mac, host] of this.hosts) if (host.filter !== markOf(mac)) this.hosts.set(mac, { ...host, filter: markOf(mac) });
      const wrote = await this.applyUnknown(state.unknown);
      if (wrote) await this.opts.checkAlive?.();
    });
  }

  /** Writes the wildcard file and every host file the policy changes; true when something was written. */
  private async applyUnknown(policy: UnknownPolicy): Promise<boolean> {
    const file = path.join(this.opts.hostsDir, UNKNOWN_HOSTS_FILE);
    const changedPolicy = this.unknown !== policy;
    this.unknown = policy;
    // MACs the filter holds nothing for have files of their own (a deleted file's entry would linger
    // in dnsmasq), so they follow the policy in their own entries, as the wildcard does.
    const wroteHosts = await this.flush([...this.hosts.keys()]);
    if (changedPolicy) await writeFileAtomic(file, renderUnknownHostsFile(policy));
    return wroteHosts || changedPolicy;
  }

  /** Writes the host files of `macs` whose text changed; true when any was written. */
  private async flush(macs: readonly string[]): Promise<boolean> {
    const due = macs.flatMap((mac) => {
      const host = this.hosts.get(mac);
      if (!host) return [];
      const text = renderHostFile(host, this.unknown);
      return this.written.get(mac) === text ? [] : [{ mac, text }];
    });
    for (let i = 0; i < due.length; i += WRITE_PARALLELISM) {
      await Promise.all(due.slice(i, i + WRITE_PARALLELISM).map(async ({ mac, text }) => {
        await writeFileAtomic(path.join(this.opts.hostsDir, hostFileName(mac)), text);
        this.written.set(mac, text);
      }));
    }
    return due.length > 0;
  }

  /** Deletes option files no host refers to any more (dnsmasq keeps their options until restart, inert). */
  private async dropUnusedOpts(): Promise<void> {
    const used = new Set([...this.hosts.values()].map((h) => h.tag));
    for (const tag of [...this.optsTags]) {
      if (used.has(tag)) continue;
      await unlink(this.optsFile(tag)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.optsTags.delete(tag);
    }
  }

  private async load(): Promise<void> {
    const { hostsDir, optsDir, filterEnabled } = this.opts;
    await mkdir(hostsDir, { recursive: true, mode: 0o755 });
    await mkdir(optsDir, { recursive: true, mode: 0o755 });
    for (const name of await readdir(hostsDir)) {
      if (isTemporaryName(name) && name.startsWith('.ingot-')) {
        await unlink(path.join(hostsDir, name)).catch(() => undefined);
        continue;
      }
      if (name === UNKNOWN_HOSTS_FILE) {
        this.unknown = parseUnknownHostsFile(await readFile(path.join(hostsDir, name), 'utf8')) ?? null;
        continue;
      }
      const mac = macOfHostFile(name);
      if (!mac) continue;
      const text = await readFile(path.join(hostsDir, name), 'utf8');
      const host = parseHostFile(mac, text);
      if (!host) {
        this.opts.logger?.warn({ file: path.join(hostsDir, name) }, 'dhcp: host file not written by Ingot; it will be replaced on the next change of this MAC');
        continue;
      }
      this.hosts.set(mac, host);
      this.written.set(mac, text);
    }
    for (const name of await readdir(optsDir)) {
      if (isTemporaryName(name) && name.startsWith('.ingot-')) {
        await unlink(path.join(optsDir, name)).catch(() => undefined);
        continue;
      }
      const tag = tagOfOptsFile(name);
      if (tag) this.optsTags.add(tag);
    }
    // A host naming a tag without its option file (a crash between the two writes) keeps the entry,
    // which is harmless: the tag matches no options.
    await this.dropUnusedOpts();
    if (!filterEnabled) {
      // The filter was on in an earlier run: nothing may stay ignored because of it.
      for (const [mac, host] of this.hosts) if (host.filter !== 'none') this.hosts.set(mac, { ...host, filter: 'none' });
      if (this.unknown === 'deny') await this.applyUnknown('allow');
      else await this.flush([...this.hosts.keys()]);
    }
  }

  private async run(fn: () => Promise<void>): Promise<void> {
    if (this.closed) throw fail('dhcpProviderClosed');
    const next = this.queue.catch(() => undefined).then(fn);
    this.queue = next;
    return next;
  }
}

function checkPolicy(policy: unknown): asserts policy is UnknownPolicy {
  if (policy !== 'allow' && policy !== 'deny') throw fail('unknownMacPolicyInvalid', { policy: String(policy) });
}
