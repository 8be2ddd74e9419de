/**
 * What the network boot interfaces (`pxe`, `ipxe`, `http`) need from the conductor's host, as narrow
 * interfaces owned here: the DHCP provider (src/boot/dhcp's `DhcpProvider` fits), the option builder (its
 * `pxeBootOptions`) and the image cache (src/images' `ImageCache` fits). The drivers layer imports none of
 * those layers; the composition root passes the real objects. The node's ports and its management
 * interface (for the boot device) come with the task (`DriverTask.ports()`, `DriverTask.driver`).
 */
import type { BootConfig } from '../../config/boot.js';
import type { Node, Port } from '../../domain/node.js';

/** One DHCP option, as src/boot/dhcp writes it (`option` number or dnsmasq name, optional tags). */
export interface BootDhcpOption {
  option: number | string;
  value: string | readonly string[];
  tags?: readonly string[];
}

/** What to boot, as src/boot/dhcp's `pxeBootOptions` takes it. */
export interface BootDhcpInput {
  /** TFTP server; may be empty with `httpBootUrl` (not sent then). */
  tftpServer: string;
  /** PXE loader; may be empty with `httpBootUrl` (not sent then). */
  biosBootFile: string;
  uefiBootFile?: string;
  ipxeScriptUrl?: string;
  tftpPathPrefix?: string;
  /** UEFI HTTP boot: URL of the EFI loader, sent to firmware whose vendor class is `HTTPClient`. */
  httpBootUrl?: string;
}

/** The part of a DHCP provider the boot interfaces use. */
export interface BootDhcp {
  updatePortOptions(node: Pick<Node, 'uuid'>, ports: readonly Pick<Port, 'address' | 'pxe_enabled'>[], options: readonly BootDhcpOption[]): Promise<void>;
  cleanPortOptions(ports: readonly Pick<Port, 'address' | 'pxe_enabled'>[]): Promise<void>;
}

/** The part of the image cache the boot interfaces use: per-key links to cached master images. */
export interface BootImages {
  /** A file holding the image at `req.url` (downloaded once, shared), kept until `releaseNode(key)`. */
  linkForNode(key: string, req: { url: string; checksum?: string; forceRaw?: boolean; signal?: AbortSignal }): Promise<{ path: string }>;
  releaseNode(key: string): Promise<void>;
}

/** Everything the network boot interfaces need; one per conductor. */
export interface NetworkBootEnvironment {
  /** The `[boot]` group with `tftp_root_dir` and `http_root_dir` resolved to absolute directories. */
  readonly config: Readonly<BootConfig>;
  readonly dhcp: BootDhcp;
  /** Builds the DHCP options (src/boot/dhcp `pxeBootOptions`). */
  dhcpOptions(input: BootDhcpInput): BootDhcpOption[];
  readonly images: BootImages;
}
