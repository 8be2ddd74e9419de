/**
 * The `none` DHCP provider (Ironic's `ironic/dhcp/none.py`): for operators whose own DHCP server
 * hands out the boot options. It writes nothing, but checks its input like the others do, so a bad
 * MAC or option fails the same way whichever provider is configured.
 */
import { fail } from '../../shared/errors.js';
import { optionLine } from './dnsmasq-lines.js';
import { ETHERNET_MAC, normalizeMacs } from '../../shared/mac.js';
import type { DhcpNode, DhcpOption, DhcpPort, DhcpProvider, FilterState, PxeFilter, UnknownPolicy } from './provider.js';

/** Does nothing with valid input. */
export class NoneDhcpProvider implements DhcpProvider {
  readonly name = 'none' as const;
  readonly filter: PxeFilter = {
    allow: async (macs: Iterable<string>) => void normalizeMacs(macs, ETHERNET_MAC),
    deny: async (macs: Iterable<string>) => void normalizeMacs(macs, ETHERNET_MAC),
    setUnknownPolicy: async (policy: UnknownPolicy) => checkPolicy(policy),
    sync: async (state: FilterState) => {
      normalizeMacs(state.allow, ETHERNET_MAC);
      normalizeMacs(state.deny, ETHERNET_MAC);
      checkPolicy(state.unknown);
    },
  };

  async updatePortOptions(_node: DhcpNode, ports: readonly DhcpPort[], options: readonly DhcpOption[]): Promise<void> {
    normalizeMacs(ports.filter((p) => p.pxe_enabled).map((p) => p.address), ETHERNET_MAC);
    for (const option of options) optionLine(null, option);
  }

  async cleanPortOptions(ports: readonly DhcpPort[]): Promise<void> {
    normalizeMacs(ports.map((p) => p.address), ETHERNET_MAC);
  }

  async close(): Promise<void> {}
}

function checkPolicy(policy: unknown): void {
  if (policy !== 'allow' && policy !== 'deny') throw fail('unknownMacPolicyInvalid', { policy: String(policy) });
}
