/**
 * The GRUB configs of the `http` interface (UEFI HTTP boot), after Ironic's `pxe_grub_config.template`
 * with the files in the HTTP root. The firmware loads GRUB from `<http_url>/<uefi_http_bootfile_name>`;
 * GRUB reads `$prefix/grub.cfg`, the master config Ingot writes at the top of the HTTP root, which loads
 * the config of the booting MAC (`<aa:bb:cc:dd:ee:ff>.conf`, GRUB's `$net_default_mac`). That config
 * loads kernel and initrd over HTTP by GRUB's `(http,<host>[:<port>])/<path>` device syntax.
 */
import path from 'node:path';
import type { BootConfig } from '../../config/boot.js';
import { fail } from '../../shared/errors.js';
import { macColons, macHyphens } from '../network-boot/boot-info.js';
import { renderGrubMenu, type BootEntry } from '../network-boot/boot-entry.js';

/** The HTTP root as GRUB names it. */
export interface GrubHttpRoot {
  /** GRUB's device: `(http,10.0.0.1:8088)`, `(http,[fd00::1])` (no port: GRUB's default 80). */
  device: string;
  /** URL path of the HTTP root, no trailing slash: `` or `/boot`. */
  base: string;
  /** The server's host (an IPv6 address without brackets), for `boot_server=` on the kernel command line. */
  host: string;
}

// NOTE: paths and hosts go into GRUB script words unquoted; GRUB's lexer gives `$ ; , ( ) " '` and spaces
// meaning (GRUB manual, "Shell-like scripting"), so only plain URL characters are let through.
const PLAIN_PATH = /^(\/[A-Za-z0-9._~-]+)*$/;
const PLAIN_HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])$/;

/** `[boot] http_url` as GRUB reaches it; ConfigInvalid for anything GRUB's http module cannot fetch. */
export function grubHttpRoot(config: Pick<BootConfig, 'http_url'>): GrubHttpRoot {
  const text = config.http_url.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail('httpUrlNotUrl', { url: text });
  }
  // NOTE: GRUB's http module speaks plain HTTP/1.1 only (grub-core/net/http.c has no TLS).
  if (url.protocol !== 'http:') throw fail('httpUrlNotHttp', { url: text });
  if (url.username || url.password || url.search || url.hash) {
    throw fail('httpUrlHasExtras', { url: text });
  }
  const base = url.pathname.replace(/\/+$/, '');
  if (!PLAIN_HOST.test(url.hostname) || !PLAIN_PATH.test(base)) {
    throw fail('httpUrlUnsafeForGrub', { url: text });
  }
  return { device: `(http,${url.hostname}${url.port ? `:${url.port}` : ''})`, base, host: url.hostname.replace(/^\[|\]$/g, '') };
}

/** GRUB's name of `<http root>/<rest>`, e.g. `(http,10.0.0.1:8088)/<uuid>/deploy_kernel`. */
export function grubHttpPath(root: GrubHttpRoot, rest: string): string {
  return `${root.device}${root.base}/${rest.replace(/^\/+/, '')}`;
}

/** Where the `http` interface writes the configs of `mac` (absolute paths): GRUB's and Ironic's per-MAC names. */
export function httpConfigPaths(config: Pick<BootConfig, 'http_root_dir'>, mac: string): { grub: string; grubConf: string } {
  return {
    grub: path.join(config.http_root_dir, `grub.cfg-01-${macHyphens(mac)}`),
    grubConf: path.join(config.http_root_dir, `${macColons(mac)}.conf`),
  };
}

/** Where the master config goes: `grub.cfg` at the top of the HTTP root. */
export function grubMasterConfigPath(config: Pick<BootConfig, 'http_root_dir'>): string {
  return path.join(config.http_root_dir, 'grub.cfg');
}

/**
 * The master config every machine's GRUB reads first: it loads the config of the MAC GRUB booted from.
 * NOTE: upstream GRUB looks for `grub.cfg-01-<mac>` on its own only when its prefix is on TFTP
 * (grub-core/normal/main.c, `grub_net_search_config_file`), so over HTTP the MAC is looked up here.
 */
export function renderGrubMasterConfig(root: GrubHttpRoot): string {
  return [
    '# Written by Ingot (http boot interface): boot the config of the MAC this machine booted from.',
    `configfile ${grubHttpPath(root, '${net_default_mac}.conf')}`,
    '',
  ].join('\n');
}

/** The per-MAC GRUB config booting `entry` (kernel and initrd named by {@link grubHttpPath}). */
export function renderHttpGrubConfig(entry: BootEntry, mac: string, root: GrubHttpRoot): string {
  return renderGrubMenu(entry, entry.kernel, entry.initrd, mac, root.host);
}
