/**
 * The DHCP provider contract: how the conductor tells DHCP what a node's ports boot (Ironic's
 * `ironic/dhcp/base.py`: update_dhcp_opts, clean_dhcp_opts) and which machines may boot at all while
 * inspection runs (Ironic's PXE filter, `ironic/pxe_filter/`). Implementations: `none` (the operator's
 * DHCP, nothing written) and `dnsmasq` (host and option files for an operator-run or managed dnsmasq).
 */
import type { Node, Port } from '../../domain/node.js';

/**
 * One DHCP option for a node's ports, in dnsmasq's terms (Ironic's `opt_name`/`opt_value`).
 * Example: `{ option: 67, value: 'http://10.0.0.1:8080/boot.ipxe', tags: ['ipxe'] }`.
 */
export interface DhcpOption {
  /** Option number (67) or dnsmasq option name (`bootfile-name`, `server-ip-address` for next-server). */
  option: number | string;
  /** The value; a list is sent as one option holding several values (e.g. two TFTP servers). */
  value: string | readonly string[];
  /**
   * Send it only to clients carrying all these dnsmasq tags; `!tag` means "not carrying". The managed
   * dnsmasq sets `ipxe` (iPXE: user class `iPXE` or option 175), `efi` (client arch 7 or 9) and
   * `httpboot` (UEFI HTTP boot: vendor class `HTTPClient…`).
   */
  tags?: readonly string[];
}

/** What the provider reads of a node. */
export type DhcpNode = Pick<Node, 'uuid'>;

/** What the provider reads of a port. */
export type DhcpPort = Pick<Port, 'address' | 'pxe_enabled'>;

/** What the PXE filter does with MACs it holds no entry for. */
export type UnknownPolicy = 'allow' | 'deny';

/** A complete PXE filter state, as a periodic sync computes it (see `planFilterSync`). */
export interface FilterState {
  /** MACs that may boot (their nodes are being inspected). */
  allow: Iterable<string>;
  /** MACs dnsmasq ignores unless Ingot has boot options for them. */
  deny: Iterable<string>;
  /** What happens to every other MAC, including ones the filter held before and no longer lists. */
  unknown: UnknownPolicy;
}

/**
 * The inspection PXE filter. A MAC with boot options from {@link DhcpProvider.updatePortOptions} is
 * always answered: the filter decides only for MACs Ingot is not booting. With the filter disabled in
 * the configuration every operation is a no-op, so callers need not check.
 */
export interface PxeFilter {
  /** Answer these MACs (dnsmasq's global settings apply to those without node options). */
  allow(macs: Iterable<string>): Promise<void>;
  /** Ignore these MACs while they have no node options. */
  deny(macs: Iterable<string>): Promise<void>;
  /** Answer or ignore every MAC the filter holds nothing for. */
  setUnknownPolicy(policy: UnknownPolicy): Promise<void>;
  /** Make the filter exactly `state`: listed MACs as listed, formerly listed ones follow `state.unknown`. */
  sync(state: FilterState): Promise<void>;
}

/** A DHCP provider. Every operation validates its input and throws InvalidParameterValue on bad MACs or options. */
export interface DhcpProvider {
  readonly name: 'none' | 'dnsmasq';
  /**
   * Give the node's PXE-enabled ports `options` (replacing what they had). Resolves when the change is
   * where DHCP reads it; throws DriverOperationError when the DHCP server is known to be down.
   */
  updatePortOptions(node: DhcpNode, ports: readonly DhcpPort[], options: readonly DhcpOption[]): Promise<void>;
  /** Take the node options off these ports (every port given, PXE-enabled or not); the filter decides for them again. */
  cleanPortOptions(ports: readonly DhcpPort[]): Promise<void>;
  readonly filter: PxeFilter;
  /** Stops what the provider started (the managed dnsmasq). Safe to call twice. */
  close(): Promise<void>;
}
