/** The error messages raised in `src/inspection/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const INSPECTION_MESSAGES = {
  // inspection/capabilities.ts
  capabilitiesNotString: { code: 'InvalidParameterValue', text: 'Invalid capabilities value {value}: expected "key:value,…".' },
  capabilityNotKeyValue: { code: 'InvalidParameterValue', text: 'Invalid capabilities string \'{value}\': "{item}" is not key:value.' },

  // inspection/process.ts
  hookUnknown: { code: 'ConfigInvalid', text: 'inspector.hooks[{index}]: hook "{name}" is not known; available: {available}' },
  hookUnsupported: { code: 'ConfigInvalid', text: 'inspector.hooks[{index}]: hook "{name}" is not supported by Ingot; available: {available}' },
  hookListedTwice: { code: 'ConfigInvalid', text: 'inspector.hooks[{index}]: hook "{name}" is listed twice' },
  hookDependencyLate: { code: 'ConfigInvalid', text: 'inspector.hooks[{index}]: hook "{name}" needs "{dependency}" earlier in the list' },

  // inspection/hooks/physical-network.ts ({entry} is the entry as JSON)
  cidrMapEntryInvalid: { code: 'ConfigInvalid', text: 'inspector.physical_network_cidr_map[{index}]: {entry} is not "<CIDR>:<physical network>"' },

  // inspection/validate.ts (InspectionDataError; {path} is the JSON path of the problem, or "(body)", {value} the value as JSON)
  inspectionDataNotObject: { code: 'InvalidParameterValue', text: '{path}: expected a JSON object, got {value}' },
  inspectionDataNotPayload: { code: 'InvalidParameterValue', text: '{path}: does not match the inspection payload schema' },
  inspectionDataMissing: { code: 'InvalidParameterValue', text: '{path}: is required' },
  inspectionDataTooLong: { code: 'InvalidParameterValue', text: '{path}: has {count} entries, more than the limit of {limit}' },
  inspectionDataInvalid: { code: 'InvalidParameterValue', text: '{path}: {value} is not valid ({problem})' },
  inspectionDataMacInvalid: { code: 'InvalidParameterValue', text: '{path}: {value} is not a MAC address' },
  inspectionDataNameTaken: { code: 'InvalidParameterValue', text: '{path}: {value} is already used by inventory.interfaces[{index}]' },

  // inspection/rules/builtin-rules.ts ({source} is the rules file, or "built-in inspection rules")
  builtinRulesJsonInvalid: { code: 'ConfigInvalid', text: '{source}: invalid JSON: {reason}' },
  builtinRulesYamlInvalid: { code: 'ConfigInvalid', text: '{source}: invalid YAML: {reason}' },
  builtinRulesNeedYaml: {
    code: 'ConfigInvalid',
    text: '{source}: expected a JSON list of rules (YAML needs a YAML parser, which this deployment does not provide)',
  },
  builtinRulesNotList: { code: 'ConfigInvalid', text: '{source}: should contain a list of rules' },
  builtinRuleNotMapping: { code: 'ConfigInvalid', text: '{source}: rule {index} is not a mapping' },
  builtinRuleUnknownFields: { code: 'ConfigInvalid', text: '{source}: rule {index} has unknown field(s): {fields}' },
  builtinRuleInvalid: { code: 'ConfigInvalid', text: '{source}: rule {index} ({uuid}): {problems}' },

  // inspection/rules/inspection-rules.ts and legacy-rules.ts: a rule refused at creation, with its problems
  // (the messages below, joined with "; ")
  inspectionRuleInvalid: { code: 'InvalidParameterValue', text: 'Invalid inspection rule: {problems}' },
  legacyRuleInvalid: { code: 'InvalidParameterValue', text: 'Invalid introspection rule: {problems}' },

  // The problems of a rule, each naming the rule field at fault ({field}, {at}: `conditions[0]`, `actions[1]`);
  // inspection/rules/schema-errors.ts ({problem} is the schema validator's own message)
  ruleFieldProblem: { code: 'InvalidParameterValue', text: '{field}: {problem}' },
  ruleFieldUnknownProperties: { code: 'InvalidParameterValue', text: '{field}: {problem} ({properties})' },
  ruleFieldWrongType: { code: 'InvalidParameterValue', text: '{field}: must be {types}' },
  // both formats
  ruleFieldNotString: { code: 'InvalidParameterValue', text: '{field}: must be a string' },
  ruleRegexInvalid: { code: 'InvalidParameterValue', text: '{field}: invalid regular expression "{regex}": {reason}' },
  ruleNetworkInvalid: { code: 'InvalidParameterValue', text: '{field}: invalid network: {reason}' },
  // inspection/rules/inspection-rules.ts ({kind} is "operator" or "action")
  ruleUuidInvalid: { code: 'InvalidParameterValue', text: 'uuid: "{uuid}" is not a UUID' },
  rulePriorityOutOfRange: { code: 'InvalidParameterValue', text: 'priority: must be between 0 and 9999 for user-defined rules (got {priority})' },
  rulePhaseInvalid: { code: 'InvalidParameterValue', text: 'phase: invalid phase "{phase}"; valid phases are: {phases}' },
  ruleOpNegatedTwice: { code: 'InvalidParameterValue', text: '{at}.op: more than one "!" is not allowed; prefix a single "!" to negate, e.g. "!eq"' },
  ruleConditionOpUnknown: { code: 'InvalidParameterValue', text: '{at}.op: unknown operator "{op}"; supported: {supported} (prefix "!" to negate)' },
  ruleApiCallUnsupported: {
    code: 'InvalidParameterValue',
    text: '{at}.op: Ingot does not run "api-call" actions (inspection rules make no HTTP calls); use a log action or an external hook instead',
  },
  ruleActionOpUnknown: { code: 'InvalidParameterValue', text: '{at}.op: unknown action "{op}"; supported: {supported}' },
  ruleArgsTooFew: { code: 'InvalidParameterValue', text: '{at}.args: not enough arguments; missing: {missing} ({kind} {op})' },
  ruleArgsTooMany: { code: 'InvalidParameterValue', text: '{at}.args: too many arguments: {given} given, at most {accepted} accepted ({kind} {op})' },
  ruleArgsNotListOrDict: { code: 'InvalidParameterValue', text: '{at}.args: args must be either a list or a dictionary ({kind} {op})' },
  ruleArgsMissing: { code: 'InvalidParameterValue', text: '{at}.args: missing required argument(s): {missing} ({kind} {op})' },
  ruleArgsUnexpected: { code: 'InvalidParameterValue', text: '{at}.args: unexpected argument(s): {unexpected} ({kind} {op})' },
  ruleValuesNotComparable: { code: 'InvalidParameterValue', text: '{at}.args.values: must be a list of values to compare (operator {op})' },
  ruleValuesNotList: { code: 'InvalidParameterValue', text: '{at}.args.values: must be a list (operator one-of)' },
  ruleRegexNotString: { code: 'InvalidParameterValue', text: '{at}.args.regex: must be a string (operator {op})' },
  ruleLogLevelInvalid: { code: 'InvalidParameterValue', text: '{at}.args.level: invalid log level "{level}"; choose from {levels}' },
  rulePathInvalid: { code: 'InvalidParameterValue', text: '{at}.args.path: "{path}" is not a valid attribute path' },
  rulePathNotField: { code: 'InvalidParameterValue', text: '{at}.args.path: "{field}" is not a {record} field' },
  rulePathPrototypeKey: { code: 'InvalidParameterValue', text: '{field}: "{key}" cannot be used as a key in a path' },
  // inspection/rules/legacy-rules.ts ({kind} is "operator" or "action")
  legacyConditionOpUnknown: { code: 'InvalidParameterValue', text: '{at}.op: unknown operator "{op}"; supported: {supported}' },
  legacyFieldSchemeUnsupported: { code: 'InvalidParameterValue', text: '{at}.field: unsupported scheme "{scheme}://"; use data:// or node://' },
  legacyFieldPathInvalid: { code: 'InvalidParameterValue', text: '{at}.field: cannot parse JSON path "{field}": {reason}' },
  legacyRegexNotString: { code: 'InvalidParameterValue', text: '{at}.value: a regular expression must be a string' },
  legacyActionUnknown: { code: 'InvalidParameterValue', text: '{at}.action: unknown action "{action}"; supported: {supported}' },
  legacyPathEmpty: { code: 'InvalidParameterValue', text: '{at}.path: must name a node attribute' },
  legacyParamsMissing: { code: 'InvalidParameterValue', text: '{at}: missing required parameter(s) for {kind} {op}: {missing}' },
  legacyParamsUnexpected: { code: 'InvalidParameterValue', text: '{at}: unexpected parameter(s) for {kind} {op}: {unexpected}' },
} as const satisfies MessageTable;
