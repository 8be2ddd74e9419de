/**
 * Which BMC a node is reached through, as a key for per-BMC limits: several nodes can share one BMC
 * (a chassis manager, a multi-node Redfish service, the `ingot bmc` emulator), and a BMC answers only
 * so many requests at once.
 */
import type { Node } from '../domain/node.js';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** `redfish:<host:port>`, `ipmi:<host:port>`, or `node:<uuid>` for nodes without a known BMC (no sharing). */
export function bmcKey(node: Pick<Node, 'uuid' | 'driver_info'>): string {
  const redfish = text(node.driver_info['redfish_address']);
  if (redfish) {
    try {
      const url = new URL(redfish.includes('://') ? redfish : `https://${redfish}`);
      return `redfish:${url.host}`;
    } catch {
      return `redfish:${redfish}`;
    }
  }
  const ipmi = text(node.driver_info['ipmi_address']);
  if (ipmi) return `ipmi:${ipmi}:${String(node.driver_info['ipmi_port'] ?? 623)}`;
  return `node:${node.uuid}`;
}
