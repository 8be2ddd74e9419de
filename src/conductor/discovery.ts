/**
 * Auto-discovery (Ironic's `[auto_discovery]`): when inspection data arrives from a machine that no
 * node matches, and `inspector.auto_discovery.enabled` is set, a node is enrolled for it with the
 * configured hardware type, its BMC address in that type's `*_address` driver_info key, and the `agent`
 * inspect interface. The data is then processed as for any inspection (hooks create the ports, rules can
 * set credentials — `plugin_data.auto_discovered` is true for them), and the node stays in `enroll` for
 * the operator to complete.
 */
import type { JsonObject, Node } from '../domain/node.js';
import { S } from '../domain/states.js';
import { isoTime } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import type { ConductorContext } from './context.js';
import { bmcHosts, meaningfulAddresses } from './inspection-lookup.js';
import { eachNode } from './periodics/nodes.js';

/** Discoveries run one at a time in this process, so one machine posting twice is enrolled once. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Enrolls a node for an unknown machine. Throws InspectionLookupFailed when another node (in any state)
 * already has the machine's BMC address — that machine is known, just not being inspected.
 */
export function enrollDiscoveredNode(ctx: ConductorContext, bmcAddresses: readonly (string | null | undefined)[], macs: readonly string[]): Promise<Node> {
  const run = queue.then(() => enroll(ctx, bmcAddresses, macs));
  queue = run.catch(() => undefined);
  return run;
}

async function enroll(ctx: ConductorContext, bmcAddresses: readonly (string | null | undefined)[], macs: readonly string[]): Promise<Node> {
  const { driver } = ctx.inspector.auto_discovery;
  const addresses = meaningfulAddresses(bmcAddresses);
  if (addresses.length > 0) {
    for await (const node of eachNode(ctx, {})) {
      const shared = bmcHosts(node).find((h) => addresses.includes(h));
      if (shared) {
        throw fail('discoveredBmcTaken', { address: shared, node: node.uuid, state: node.provision_state });
      }
    }
  }
  // A second post of a machine just enrolled finds its node by MAC once the ports exist; until then its BMC address (above) or its MACs here.
  for (const mac of macs) {
    const [port] = await ctx.store.ports.list({ address: mac.toLowerCase() }, { limit: 1 });
    if (port) throw fail('discoveredMacTaken', { mac, node: (await ctx.store.nodes.getById(port.node_id)).uuid });
  }
  if (!ctx.registry.hardwareTypes().includes(driver)) {
    throw fail('discoveryDriverNotEnabled', { driver, enabled: ctx.registry.hardwareTypes().join(', ') });
  }
  const addressKey = Object.keys(ctx.registry.properties(driver)).find((k) => k.endsWith('_address'));
  const driverInfo: JsonObject = addressKey && addresses[0] ? { [addressKey]: addresses[0] } : {};
  const fields = ctx.registry.resolve(driver, { inspect_interface: 'agent' }, '');
  const node = await ctx.store.nodes.create({
    driver, ...fields, driver_info: driverInfo, provision_state: S.ENROLL, provision_updated_at: isoTime(ctx.clock.now()),
  });
  await ctx.store.history.record({
    node_id: node.id, severity: 'INFO', event_type: 'inspection', conductor: ctx.hostname, user: null, duration_ms: null,
    event: `enrolled by auto-discovery (MACs ${macs.join(', ') || 'none'}; BMC address ${addresses[0] ?? 'none'})`,
  });
  ctx.logger.info({ node: node.uuid, driver, macs, bmc: addresses }, `auto-discovery enrolled node ${node.uuid}`);
  return node;
}
