/**
 * What both rules engines take and give back. The engines are pure: they read a snapshot of the node,
 * its ports and the inspection data, and return the changes for the caller to persist.
 */
import type { JsonObject, Node, Port } from '../../domain/node.js';
import type { Inventory } from '../../protocol/agent/inventory.js';

/** The inspection a set of rules runs against. Nothing in it is modified. */
export interface RulesContext {
  node: Node;
  ports: readonly Port[];
  /** The agent's hardware inventory. */
  inventory: Inventory | JsonObject;
  /** Everything else the agent and the processing hooks produced (`root_disk`, `all_interfaces`, …). */
  pluginData: JsonObject;
}

/** Log levels the `log` action accepts (Python logging's). */
export type RuleLogLevel = 'debug' | 'info' | 'warning' | 'error' | 'critical';

/** A line rules asked to log (the `log` action) or that the engine reports about a rule. */
export interface RuleLogLine {
  level: RuleLogLevel;
  /** The rule's uuid or, without one, its description or its position (`rule #2`). */
  rule: string;
  message: string;
}

/** The changed fields of one port: field name -> new value. */
export interface PortChange {
  uuid: string;
  address: string;
  changes: Record<string, unknown>;
}

/** Why rule processing stopped. */
export interface RulesFailure {
  rule: string;
  message: string;
  /** `fail-action`: a rule's `fail` action ran; `error`: a rule could not be evaluated or applied. */
  cause: 'fail-action' | 'error';
}

/**
 * The outcome of running a list of rules. On failure the changes made by the actions that ran before it
 * are still reported (Ironic saves each action as it goes); the caller decides whether to keep them.
 */
export interface RulesResult {
  /** The node with every change applied (a copy). */
  node: Node;
  /** Top-level node fields whose value changed, with their new value (`properties`, `extra`, `traits`, …). */
  nodeChanges: Partial<Record<keyof Node, unknown>>;
  /** All ports after the changes (copies). */
  ports: Port[];
  /** Only the ports that changed. */
  portChanges: PortChange[];
  /** Plugin data after the changes (a copy). */
  pluginData: JsonObject;
  pluginDataChanged: boolean;
  log: RuleLogLine[];
  /** Rules whose conditions held and whose actions ran, in order. */
  applied: string[];
  /** Set when a `set-attribute` changed `driver` and the interfaces should be reset to the new driver's defaults. */
  resetInterfaces: boolean;
  failure: RulesFailure | null;
}
