/**
 * Introspection rules, in both formats Ingot serves: legacy ironic-inspector rules (`/v1/rules`) and
 * Ironic inspection rules (`/v1/inspection_rules`). Pure code: validation for the CRUD APIs, the two
 * engines, and the built-in rules loader.
 */
export { applyLegacyRules } from './legacy-engine.js';
export {
  checkLegacyRule,
  validateLegacyRule,
  LEGACY_ACTIONS,
  LEGACY_CONDITION_OPS,
  type LegacyRule,
  type LegacyRuleInput,
} from './legacy-rules.js';
export { applyInspectionRules, type InspectionRulesOptions } from './inspection-engine.js';
export {
  checkInspectionRule,
  validateInspectionRule,
  checkInspectionRuleBody,
  ACTION_OPS,
  CONDITION_OPS,
  type InspectionRule,
  type InspectionRuleInput,
} from './inspection-rules.js';
export { parseBuiltinInspectionRules, syntheticRuleUuid, type BuiltinRulesOptions } from './builtin-rules.js';
export type { PortChange, RuleLogLine, RulesContext, RulesFailure, RulesResult } from './types.js';
