import { Type, type Static } from 'typebox';

const IPV4_OR_EMPTY = '^$|^(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}$';

/**
 * The DHCP provider that hands machines their boot options (Ironic's `[dhcp]dhcp_provider`,
 * `[dnsmasq]` and `[pxe_filter]`). `none` leaves DHCP to the operator; `dnsmasq` writes one host entry
 * per MAC into dnsmasq's `dhcp-hostsdir` and per-node option files into its `dhcp-optsdir`, for a
 * dnsmasq the operator runs or one Ingot starts itself (`managed`).
 */
export const DhcpConfig = Type.Object({
  provider: Type.Union([Type.Literal('none'), Type.Literal('dnsmasq')], {
    default: 'none',
    description: 'none: DHCP is the operator\'s (Ingot writes nothing); dnsmasq: Ingot writes host and option files for dnsmasq.',
  }),
  hosts_dir: Type.String({
    default: '',
    description: 'dnsmasq dhcp-hostsdir Ingot writes one file per MAC into; empty means dhcp/hostsdir inside database.data_dir.',
  }),
  opts_dir: Type.String({
    default: '',
    description: 'dnsmasq dhcp-optsdir Ingot writes one option file per node into; empty means dhcp/optsdir inside database.data_dir.',
  }),
  pid_file: Type.String({
    default: '',
    description: 'PID file of an operator-run dnsmasq (same PID namespace); when set, every change checks that dnsmasq runs and fails clearly if not. Empty: no check.',
  }),
  dnsmasq_path: Type.String({ default: '/usr/sbin/dnsmasq', minLength: 1, description: 'The dnsmasq binary the managed mode starts (Debian: dnsmasq-base).' }),
  managed: Type.Object(
    {
      enabled: Type.Boolean({ default: false, description: 'Start and stop a dnsmasq for DHCP (and optionally TFTP) on `interface` with Ingot.' }),
      interface: Type.String({ default: '', description: 'Network interface the managed dnsmasq serves (bind-interfaces); required when enabled.' }),
      netns: Type.String({ default: '', description: 'Network namespace to run the managed dnsmasq in (ip netns exec); empty: Ingot\'s own.' }),
      range_start: Type.String({ default: '', pattern: IPV4_OR_EMPTY, description: 'First IPv4 address handed out; required when enabled.' }),
      range_end: Type.String({ default: '', pattern: IPV4_OR_EMPTY, description: 'Last IPv4 address handed out; required when enabled.' }),
      netmask: Type.String({ default: '255.255.255.0', pattern: IPV4_OR_EMPTY, description: 'Netmask of the range.' }),
      lease_time_s: Type.Integer({ default: 3600, minimum: 120, description: 'DHCP lease time (dnsmasq\'s minimum is 2 minutes).' }),
      dns: Type.Boolean({ default: false, description: 'Also serve DNS on the interface; off sets port=0 so dnsmasq does DHCP only.' }),
      router_advertisement: Type.Boolean({
        default: false,
        description: 'Answer IPv6 router solicitations (enable-ra, ra-only) so iPXE stops waiting for IPv6: boots get several seconds faster. Needs an IPv6 address on the interface to advertise a prefix.',
      }),
      tftp_root: Type.String({ default: '', description: 'Serve TFTP from this directory with dnsmasq\'s own server (enable-tftp); empty: no TFTP from dnsmasq.' }),
      tftp_server: Type.String({
        default: '',
        pattern: IPV4_OR_EMPTY,
        description: 'Default TFTP server (option 66 and next-server) for machines without per-node options, e.g. Ingot\'s TFTP server; empty: none.',
      }),
      extra_options: Type.Array(Type.String({ pattern: '^[^\\n\\r]*$' }), {
        default: [],
        description: 'More dnsmasq configuration lines, verbatim (e.g. "dhcp-option=option:router,10.0.0.1").',
      }),
    },
    { default: {}, description: 'A dnsmasq started, configured and stopped by Ingot.' },
  ),
  inspection_filter: Type.Object(
    {
      enabled: Type.Boolean({
        default: false,
        description: 'Manage the PXE filter (Ironic [pxe_filter]): known MACs not being inspected or booted by Ingot are ignored by dnsmasq.',
      }),
      deny_unknown_macs: Type.Boolean({
        default: false,
        description: 'Never answer MACs Ingot does not know, even while an inspection runs (then every node needs an enrolled port before inspection).',
      }),
    },
    { default: {}, description: 'The inspection PXE filter over the same dnsmasq host entries.' },
  ),
});
export type DhcpConfig = Static<typeof DhcpConfig>;
