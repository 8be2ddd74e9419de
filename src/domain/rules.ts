/**
 * Stored inspection rules, in the two formats Ingot serves: Ironic's inspection rules
 * (`/v1/inspection_rules`, run by priority) and the legacy ironic-inspector introspection rules
 * (`/v1/rules` on the legacy inspector listener, run in creation order). Conditions and actions are kept as
 * sent (after validation); the engines in `inspection/rules` read them.
 */
import type { JsonObject } from './node.js';

export interface InspectionRuleRecord {
  id: number;
  uuid: string;
  description: string | null;
  /** Higher runs first. */
  priority: number;
  /** A sensitive rule's conditions and actions are never shown through the API. */
  sensitive: boolean;
  phase: string;
  conditions: JsonObject[];
  actions: JsonObject[];
  created_at: string;
  updated_at: string | null;
}

export interface LegacyRuleRecord {
  id: number;
  uuid: string;
  description: string | null;
  /** When set, the rule applies only to nodes whose `properties.inspection_scope` equals it. */
  scope: string | null;
  conditions: JsonObject[];
  actions: JsonObject[];
  created_at: string;
}
