/**
 * The conductor contract as the API suites reach it. They run twice: in-process (the API holds the
 * conductor's client itself) and, in the `api-json` project of vitest.config.ts, with
 * `INGOT_TEST_CONDUCTOR_TRANSPORT=json`, through the loopback JSON transport, so every call and answer
 * of the API suites crosses JSON as it will between `ingot api` and `ingot conductor`.
 */
import type { ConductorClient } from '../../src/conductor/client.js';
import { loopbackConductorClient } from '../../src/conductor/json-transport.js';

/** How the API under test reaches its conductor. */
export type ContractTransport = 'in-process' | 'json';

function transportOf(value: string | undefined): ContractTransport {
  if (value === undefined || value === '' || value === 'in-process') return 'in-process';
  if (value === 'json') return 'json';
  throw new Error(`INGOT_TEST_CONDUCTOR_TRANSPORT=${value}: use in-process (the default) or json`);
}

/** The transport of this test run. */
export const CONTRACT_TRANSPORT: ContractTransport = transportOf(process.env.INGOT_TEST_CONDUCTOR_TRANSPORT);

/** `conductor` as the API under test gets it: itself, or behind the loopback JSON transport. */
export function overContract(conductor: ConductorClient): ConductorClient {
  return CONTRACT_TRANSPORT === 'json' ? loopbackConductorClient(conductor) : conductor;
}
