/**
 * The `none` DHCP provider (Ironic's `ironic/dhcp/none.py`): for operators whose own DHCP server
 * hands out the boot options. It writes nothing, but checks its input like the others do, so a bad
 * MAC or option fails the same way whichever provider is configured.
 */
import { fail } from '../../shared/errors.js';
import { optionLine } from './dnsmasq-lines.js';
import { normalizeMacs } from './mac.js';
import type { DhcpNode, DhcpOption, DhcpPort, DhcpProvider, FilterState, PxeFilter, UnknownPolicy } from './provider.js';

/** Does nothing with valid input. */
export class NoneDhcpProvider implements DhcpProvider {
  readonly name = 'none' as const;
  readonly filter: PxeFilter = {
    allow: async (macs: Iterable<string>) => void normalizeMacs(macs),
    deny: async (macs: Iterable<string>) => void normalizeMacs(macs),
    setUnknownPolicy: async (policy: UnknownPolicy) => checkPolicy(policy),
    sync: async (state: FilterState) => {
      normalizeMacs(state.allow);
      normalizeMacs(state.deny);
      checkPolicy(state.unknown);
    },
  };

  async updatePortOptions(_node: DhcpNode, ports: readonly DhcpPort[], options: readonly DhcpOption[]): Promise<void> {
    normalizeMacs(ports.filter((p) => p.pxe_enabled).map((p) => p.address));
    for (const option of options) optionLine(null, option);
  }

  async cleanPortOptions(ports: readonly DhcpPort[]): Promise<void> {
    normalizeMacs(ports.map((p) => p.address));
  }

  async close(): Promise<void> {}
}

function checkPolicy(policy: unknown): void {
  if (policy !== 'allow' && policy !== 'deny') throw fail('InvalidParameterValue', `The unknown-MAC policy must be allow or deny, not ${String(policy)}.`);
}
