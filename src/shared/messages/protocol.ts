/** The error messages raised in `src/protocol/` (see `index.ts` for how a message reads and is raised). */
import type { MessageTable } from './table.js';

export const PROTOCOL_MESSAGES = {
  // agent/root-device-hints.ts (a RootDeviceHintError; Ironic's wording where ironic-lib has one)
  rootDeviceHintsNotDict: { code: 'InvalidParameterValue', text: 'Root device hints must be a dict of hint name -> expression, got {value}' },
  rootDeviceHintsUnknown: { code: 'InvalidParameterValue', text: 'The hints "{hints}" are invalid. Valid hints are: "{valid}"' },
  rootDeviceHintEmpty: { code: 'InvalidParameterValue', text: 'Root device hint "{hint}" expression is empty' },
  rootDeviceHintNotBoolean: { code: 'InvalidParameterValue', text: 'Root device hint "{hint}" is not a Boolean value. Current value: {value}' },
  rootDeviceHintNotString: { code: 'InvalidParameterValue', text: 'Root device hint "{hint}" is not a string value. Hint expression: {value}' },
  rootDeviceHintNeedsValue: { code: 'InvalidParameterValue', text: 'Root device hint "{hint}": operator {op} needs a value' },
  rootDeviceHintOrEmpty: { code: 'InvalidParameterValue', text: 'Root device hint "{hint}": <or> needs at least one value. Current value: {value}' },
  rootDeviceHintStringOperator: {
    code: 'InvalidParameterValue',
    text: 'Root device hint "{hint}": operator {op} does not apply to strings; use one of s==, s!=, s>=, s>, s<=, s<, <in>, <or>, <all-in>',
  },
  rootDeviceHintSizeType: {
    code: 'InvalidParameterValue',
    text: 'Root device hint "size" must be an integer or a string with an operator. Current value: {value}',
  },
  rootDeviceHintSizeNotInteger: { code: 'InvalidParameterValue', text: 'Root device hint "size" is not an integer value. Current value: {value}' },
  rootDeviceHintSizeNotPositive: { code: 'InvalidParameterValue', text: 'Root device hint "size" should be a positive integer. Current value: {value}' },
  rootDeviceHintSizeOperator: {
    code: 'InvalidParameterValue',
    text: 'Root device hint "size": operator {op} does not apply to numbers; use one of =, ==, !=, >=, >, <=, <, <or>, <range-in>',
  },
  rootDeviceHintRangeInvalid: {
    code: 'InvalidParameterValue',
    text: 'Root device hint "size": <range-in> needs two numbers in brackets, e.g. "<range-in> [ 10 20 ]" or "<range-in> ( 10 20 ]". Current value: {value}',
  },
  rootDeviceHintRangeReversed: {
    code: 'InvalidParameterValue',
    text: 'Root device hint "size": the first <range-in> bound must not exceed the second. Current value: {value}',
  },

  // api/traits.ts (Ironic's wording)
  traitInvalid: {
    code: 'InvalidParameterValue',
    text: 'Invalid trait {trait}. A valid trait must be no longer than 255 characters. Standard traits are defined in the os_traits library. A custom trait must start with the prefix CUSTOM_ and use the following characters: A-Z, 0-9 and _',
  },
} as const satisfies MessageTable;
