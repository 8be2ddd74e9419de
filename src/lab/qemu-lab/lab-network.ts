/**
 * The lab's network: a namespace holding a bridge (the machines' broadcast domain, where Ingot's
 * DHCP, HTTP boot and BMC endpoints listen), one tap per VM plugged into it, and a veth uplink to the
 * host's namespace so the host reaches the lab (a /30, plus a host route to the lab subnet through it).
 * Deleting the namespace removes the bridge, the taps and the namespace end of the veth, and with it
 * the host end and the route.
 */
import { execFile } from 'node:child_process';
import { fail } from '../../shared/errors.js';
import { ip, ipTry, linkExists, listNamespaces } from './host-tools.js';
import { LAB_NET, hostVethName, tapName } from './layout.js';

/** The interfaces a lab network consists of. */
export interface LabNetwork {
  namespace: string;
  bridge: string;
  taps: string[];
  veth: { host: string; lab: string };
}

/** Throws InvalidState when `ns` exists or the host already holds the lab uplink address (another lab). */
export async function checkNetworkFree(ns: string): Promise<void> {
  if ((await listNamespaces()).includes(ns)) {
    throw fail('labNamespaceExists', { namespace: ns });
  }
  const host = hostVethName(ns);
  if (await linkExists(host)) throw fail('labHostLinkExists', { link: host });
  const taken = await ip('-o', 'addr', 'show', 'to', `${LAB_NET.hostUplinkAddress}/32`);
  if (taken.trim() !== '') {
    const dev = taken.trim().split(/\s+/)[1] ?? '?';
    throw fail('labUplinkTaken', { address: LAB_NET.hostUplinkAddress, link: dev });
  }
}

/**
 * Creates the namespace and everything in it for `machines` VMs. On failure it deletes what it created
 * and rethrows.
 */
export async function createLabNetwork(ns: string, machines: number): Promise<LabNetwork> {
  const net: LabNetwork = {
    namespace: ns,
    bridge: LAB_NET.bridge,
    taps: Array.from({ length: machines }, (_, i) => tapName(i)),
    veth: { host: hostVethName(ns), lab: LAB_NET.labUplink },
  };
  const inNs = (...args: string[]) => ip('-n', ns, ...args);
  await ip('netns', 'add', ns);
  try {
    await inNs('link', 'set', 'lo', 'up');
    await shortOrphanRetries(ns);
    // NOTE: no STP and no forwarding delay: a port forwards as soon as QEMU opens its tap, so the
    // firmware's first DHCP DISCOVER is not lost in a listening/learning phase (docs/lab.md).
    await inNs('link', 'add', net.bridge, 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0');
    await inNs('addr', 'add', `${LAB_NET.bridgeAddress}/${LAB_NET.bridgePrefix}`, 'dev', net.bridge);
    // An IPv6 prefix for dnsmasq to advertise: iPXE waits for an IPv6 router before it goes on, and
    // dnsmasq's `ra-only` range answers it only on an interface with such an address. nodad: the
    // address is usable at once, before the bridge has a port with carrier.
    await inNs('addr', 'add', LAB_NET.bridgeAddress6, 'dev', net.bridge, 'nodad');
    await inNs('link', 'set', net.bridge, 'up');
    for (const tap of net.taps) {
      await inNs('tuntap', 'add', 'dev', tap, 'mode', 'tap');
      await inNs('link', 'set', tap, 'master', net.bridge, 'up');
    }
    // Both ends are created in their final namespaces: no interface is ever moved out of the host's.
    await ip('link', 'add', net.veth.host, 'type', 'veth', 'peer', 'name', net.veth.lab, 'netns', ns);
    await ip('addr', 'add', `${LAB_NET.hostUplinkAddress}/${LAB_NET.uplinkPrefix}`, 'dev', net.veth.host);
    await ip('link', 'set', net.veth.host, 'up');
    await inNs('addr', 'add', `${LAB_NET.labUplinkAddress}/${LAB_NET.uplinkPrefix}`, 'dev', net.veth.lab);
    await inNs('link', 'set', net.veth.lab, 'up');
    // The lab's own addresses (10.77.0.1: BMCs, HTTP boot) are local to the namespace, so the host
    // reaches them through the uplink without forwarding in the namespace.
    await ip('route', 'add', LAB_NET.subnet, 'via', LAB_NET.labUplinkAddress, 'dev', net.veth.host);
  } catch (err) {
    await deleteLabNetwork(ns, net.veth.host).catch(() => undefined);
    throw err;
  }
  return net;
}

/**
 * NOTE: a TCP socket whose process is gone keeps its namespace alive until the peer acknowledges the
 * close or the retransmissions give up (`tcp_orphan_retries`, 0 meaning 8: minutes). Machines that stop
 * in the middle of a download (a powered-off VM, iPXE moving on to the next boot device) leave Ingot's
 * HTTP boot server with such sockets in FIN-WAIT-1 (observed with `ss -tan` after `ingot serve` was
 * stopped), so the namespace, its bridge and its taps outlived `ip netns del` by minutes. One retry
 * ends them in about a second; the setting is per namespace and touches nothing of the host's.
 */
async function shortOrphanRetries(ns: string): Promise<void> {
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile('ip', ['netns', 'exec', ns, 'sh', '-c', 'echo 1 > /proc/sys/net/ipv4/tcp_orphan_retries'], { timeout: 10_000 }, (err, _out, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr: String(stderr) }));
  });
  if (r.code !== 0) throw fail('labOrphanRetriesNotSet', { namespace: ns, reason: r.stderr.trim() || `exit ${r.code}` });
}

/** What {@link deleteLabNetwork} removed. */
export interface NetworkRemoval {
  namespaceDeleted: boolean;
  /** The host veth end had to be deleted by name (it outlived the namespace). */
  hostVethDeleted: boolean;
}

/**
 * Deletes namespace `ns` (when it exists) and the host end of its uplink (when it is left, e.g. because
 * a process still holds the namespace). Idempotent.
 */
export async function deleteLabNetwork(ns: string, hostVeth = hostVethName(ns), waitMs = 15_000): Promise<NetworkRemoval> {
  let namespaceDeleted = false;
  if ((await listNamespaces()).includes(ns)) {
    await ip('netns', 'del', ns);
    namespaceDeleted = true;
  }
  // NOTE: the kernel dismantles a namespace asynchronously once its last user is gone; the veth pair
  // (and the host route over it) goes with it a moment later. A process still inside keeps it alive.
  // A moment can be long: with both cores busy emulating machines it once took over 5 s after a lab of
  // two machines (CI), so the wait ends at 15 s, and at once when the veth is gone.
  for (const deadline = Date.now() + (namespaceDeleted ? waitMs : 0); Date.now() < deadline && (await linkExists(hostVeth));) {
    await new Promise((r) => setTimeout(r, 100));
  }
  let hostVethDeleted = false;
  if (await linkExists(hostVeth)) {
    const r = await ipTry(['link', 'del', 'dev', hostVeth]);
    if (r.code !== 0 && (await linkExists(hostVeth))) throw fail('ipFailed', { args: `link del dev ${hostVeth}`, reason: r.stderr.trim() || `exit ${r.code}` });
    hostVethDeleted = true;
  }
  return { namespaceDeleted, hostVethDeleted };
}
