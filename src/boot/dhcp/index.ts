/** DHCP providers: the contract, the `none` and `dnsmasq` implementations, and the boot options they carry. */
export type { DhcpNode, DhcpOption, DhcpPort, DhcpProvider, FilterState, PxeFilter, UnknownPolicy } from './provider.js';
export { createDhcpProvider, type DhcpProviderContext } from './create-provider.js';
export { DnsmasqProvider, type DnsmasqProviderOptions } from './dnsmasq-provider.js';
export { NoneDhcpProvider } from './none-provider.js';
export { ManagedDnsmasq, type ManagedDnsmasqOptions } from './managed-dnsmasq.js';
export { renderManagedConfig, type ManagedDnsmasqSettings } from './dnsmasq-config.js';
export { pxeBootOptions, DHCP_OPTION, HTTP_BOOT_TAG, HTTP_CLIENT_CLASS, type BootOptionsInput } from './boot-options.js';
export { planFilterSync, type FilterPlanInput } from './filter-plan.js';
export { checkDnsmasqPidFile } from './dnsmasq-pid.js';
export { hostFileName, optsFileName, UNKNOWN_HOSTS_FILE, INGOT_TAG } from './dnsmasq-lines.js';
