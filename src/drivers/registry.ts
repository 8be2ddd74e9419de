/**
 * Resolves a node's `driver` and `<iface>_interface` fields to implementations: fills defaults on
 * create, rejects unknown hardware types and implementations the type does not support.
 */
import { INTERFACES, type InterfaceName, type Node } from '../domain/node.js';
import { fail } from '../shared/errors.js';
import { HARDWARE_TYPES, type HardwareType } from './hardware-types.js';
import { IMPLEMENTATIONS, type ImplementationTable } from './implementations.js';
import type { NodeDriver } from './interfaces/index.js';
import { createDriverResources, type DriverResources } from './resources.js';

/** A node's composed driver: one implementation per interface (implementations are stateless; the node carries the state). */
export type Driver = NodeDriver;

export type InterfaceField = `${InterfaceName}_interface`;
export type InterfaceFields = Record<InterfaceField, string>;

export interface InterfaceChoice {
  enabled: string[];
  default: string;
}

export interface DriverRegistry {
  /** Enabled hardware types, sorted. */
  hardwareTypes(): string[];
  /** Throws DriverNotFound when `hardwareType` is not enabled. */
  interfacesOf(hardwareType: string): Record<InterfaceName, InterfaceChoice>;
  /**
   * The interface fields of a node of `driver` given the requested `fields` (null/undefined = default).
   * Throws NoValidHost for an unknown driver, InterfaceNotFoundInEntrypoint for an unknown implementation,
   * InvalidParameterValue for one the hardware type does not support.
   */
  resolve(driver: string, fields: Partial<Record<InterfaceField, string | null | undefined>>, conductorGroup?: string): InterfaceFields;
  /** Builds the driver of a node (fields left null fall back to defaults). */
  load(node: Pick<Node, 'driver' | InterfaceField>): Driver;
  /** `driver_info` keys documented by the default interfaces of `hardwareType`. */
  properties(hardwareType: string): Record<string, string>;
  /** Closes the drivers' shared resources (BMC sessions, sockets). */
  close(): Promise<void>;
}

export function interfaceField(iface: InterfaceName): InterfaceField {
  return `${iface}_interface`;
}

/** A registry over `enabled` hardware types (the conductor's `enabled_hardware_types`); it owns `resources`. */
export function createDriverRegistry(
  enabled: readonly string[],
  types: Readonly<Record<string, HardwareType>> = HARDWARE_TYPES,
  impls: ImplementationTable = IMPLEMENTATIONS,
  resources: DriverResources = createDriverResources(),
): DriverRegistry {
  for (const name of enabled) {
    if (!types[name]) throw fail('unknownHardwareType', { name, known: Object.keys(types).join(', ') });
  }
  const choices = new Map<string, Record<InterfaceName, InterfaceChoice>>();
  for (const name of enabled) {
    const type = types[name] as HardwareType;
    const out = {} as Record<InterfaceName, InterfaceChoice>;
    for (const iface of INTERFACES) {
      const avail = type[iface].filter((impl) => impl in impls[iface]);
      if (avail.length === 0) throw fail('hardwareTypeLacksInterface', { name, iface });
      out[iface] = { enabled: avail, default: avail[0] as string };
    }
    choices.set(name, out);
  }

  const composed = new Map<string, Driver>();

  const interfacesOf = (hardwareType: string) => {
    const c = choices.get(hardwareType);
    if (!c) throw fail('DriverNotFound', { driver_name: hardwareType });
    return c;
  };

  const resolve: DriverRegistry['resolve'] = (driver, fields, conductorGroup = '') => {
    const c = choices.get(driver);
    if (!c) {
      throw fail('noConductorForDriver', { driver, group: conductorGroup });
    }
    const out = {} as InterfaceFields;
    for (const iface of INTERFACES) {
      const field = interfaceField(iface);
      const asked = fields[field];
      if (asked === undefined || asked === null || asked === '') {
        out[field] = c[iface].default;
        continue;
      }
      if (!(asked in impls[iface])) {
        const valid = Object.keys(impls[iface]).sort();
        throw fail('interfaceNotInEntrypoint', { iface, name: asked, valid: JSON.stringify(valid) });
      }
      if (!c[iface].enabled.includes(asked)) {
        throw fail('interfaceNotSupportedByHardwareType', { iface, name: asked, driver });
      }
      out[field] = asked;
    }
    return out;
  };

  return {
    hardwareTypes: () => [...choices.keys()].sort(),
    interfacesOf,
    resolve,
    load(node) {
      const fields = resolve(node.driver, node);
      const key = `${node.driver}\u0000${INTERFACES.map((i) => fields[interfaceField(i)]).join('\u0000')}`;
      const cached = composed.get(key);
      if (cached) return cached;
      const driver: Record<string, unknown> = { hardwareType: node.driver };
      for (const iface of INTERFACES) {
        const make = impls[iface][fields[interfaceField(iface)]] as (r: DriverResources) => unknown;
        driver[iface] = make(resources);
      }
      // Implementations keep no node state (it lives in the node), so one instance per combination serves every task.
      composed.set(key, driver as Driver);
      return driver as Driver;
    },
    properties(hardwareType) {
      const c = interfacesOf(hardwareType);
      const props: Record<string, string> = {};
      for (const iface of INTERFACES) {
        const make = impls[iface][c[iface].default] as (r: DriverResources) => { properties: Record<string, string> };
        Object.assign(props, make(resources).properties);
      }
      return props;
    },
    close: () => resources.close(),
  };
}
