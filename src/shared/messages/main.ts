/**
 * The error messages raised in `src/main/` (see `index.ts` for how a message reads and is raised): the
 * configuration as it is read, and the flags of the commands, each naming the setting or flag at fault.
 */
import type { MessageTable } from './table.js';

export const MAIN_MESSAGES = {
  // main/load-config.ts (the configuration file, the environment and the flags against the schema of config/)
  configFileUnreadable: { code: 'ConfigInvalid', text: 'cannot read config file {path}: {reason}' },
  configFileNotJson: { code: 'ConfigInvalid', text: 'config file {path} is not valid JSON: {reason}' },
  configFileNotObject: { code: 'ConfigInvalid', text: 'config file {path} must hold a JSON object of groups ({groups})' },
  configGroupUnknown: { code: 'ConfigInvalid', text: '{origin}: unknown group "{group}" (known: {groups})' },
  configGroupNotObject: { code: 'ConfigInvalid', text: '{origin}: group "{group}" must be an object' },
  configKeyUnknown: { code: 'ConfigInvalid', text: '{origin}: unknown key "{group}.{key}" (known: {keys})' },
  configEnvNotNumber: { code: 'ConfigInvalid', text: 'environment {name}: expected a number, got "{value}"' },
  configEnvNotBoolean: { code: 'ConfigInvalid', text: 'environment {name}: expected true or false, got "{value}"' },
  configValueInvalid: { code: 'ConfigInvalid', text: 'invalid configuration value {path} = {value}: {reason}' },

  // main/serve.ts
  noauthNotLoopback: {
    code: 'ConfigInvalid',
    text: 'api.auth_strategy is "noauth" and api.host {host} is not a loopback address: anyone who reaches it could power off, wipe and reimage every machine. Set api.auth_strategy to "http_basic" and api.http_basic_auth_user_file to an htpasswd file of bcrypt entries (htpasswd -B; environment INGOT_API_AUTH_STRATEGY, INGOT_API_HTTP_BASIC_AUTH_USER_FILE), or listen on 127.0.0.1 (--host), or set api.allow_insecure_noauth (INGOT_API_ALLOW_INSECURE_NOAUTH=true) to accept the risk.',
  },

  // main/built-in-rules.ts
  builtInRulesUnreadable: { code: 'ConfigInvalid', text: 'inspector.built_in_rules: cannot read {path}: {reason}' },

  // main/ (flags of several commands)
  flagNotWholeNumber: { code: 'InvalidParameterValue', text: '{flag} must be a whole number from {min} to {max}, not "{value}".' },
  flagNotFraction: { code: 'InvalidParameterValue', text: '{flag} must be a number from 0 to 1, not "{value}".' },
  flagNotPort: { code: 'InvalidParameterValue', text: '{flag} must be a port number (0-65535), got "{value}".' },

  // main/bmc.ts
  machinesFileInvalid: { code: 'InvalidParameterValue', text: '--machines {path}: {reason}' },
  machinesMissing: { code: 'MissingParameterValue', text: 'Say which machines to emulate: --simulate N and/or --machines FILE.' },
  machineNameClash: { code: 'InvalidParameterValue', text: 'Machine name "{name}" is declared twice (--machines and --simulate); change --name-prefix.' },
  ipmiPortBaseTooHigh: { code: 'InvalidParameterValue', text: '--ipmi-port-base {base} leaves no room for {count} machines below port 65535.' },

  // main/demo.ts
  demoNeedsHttpBoot: { code: 'ConfigInvalid', text: 'the demo needs the HTTP boot server on a specific address (boot.http_host)' },
  demoNeedsEmptyDataDir: { code: 'InvalidParameterValue', text: 'the demo enrolls machines of its own: start it on a data directory without nodes (a new --data-dir)' },

  // main/lab.ts
  defaultAgentBundleMissing: { code: 'MissingParameterValue', text: 'The bundled agent is missing (looked for {paths}): run npm run build, or pass --agent.' },
  kernelWithoutInitramfs: { code: 'MissingParameterValue', text: '--kernel and --initramfs go together (or leave both out to build them).' },
} as const satisfies MessageTable;
