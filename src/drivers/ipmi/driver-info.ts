/** The `driver_info` keys of the `ipmi` hardware type, parsed and validated without BMC I/O. */
import type { JsonObject } from '../../domain/node.js';
import { fail } from '../../shared/errors.js';

/** Privilege levels a session may ask for (IPMI v2.0 §22.18: USER 2, OPERATOR 3, ADMINISTRATOR 4). */
export type IpmiPrivLevel = 'USER' | 'OPERATOR' | 'ADMINISTRATOR';

/** The IPMI privilege level number of a {@link IpmiPrivLevel}. */
export const PRIV_LEVEL_NUMBER: Readonly<Record<IpmiPrivLevel, number>> = { USER: 2, OPERATOR: 3, ADMINISTRATOR: 4 };

/** A BMC as the client reaches it. */
export interface IpmiBmcInfo {
  address: string;
  port: number;
  /** Empty means the anonymous (null) user. */
  username: string;
  password: string;
  /** RMCP+ cipher suite; `null` asks for 17 and falls back to 3 when the BMC does not offer 17. */
  cipherSuite: 3 | 17 | null;
  privLevel: IpmiPrivLevel;
}

/** `driver_info` keys read by the IPMI power and management interfaces. */
export const IPMI_PROPERTIES: Readonly<Record<string, string>> = Object.freeze({
  ipmi_address: 'IP address or host name of the BMC. Required.',
  ipmi_port: 'UDP port of the BMC’s IPMI over LAN (RMCP+) service. Optional, default 623.',
  ipmi_username: 'BMC user name. Optional, default empty (the anonymous user).',
  ipmi_password: 'BMC password. Optional, default empty.',
  ipmi_cipher_suite:
    'RMCP+ cipher suite: 17 (HMAC-SHA256, AES-CBC-128) or 3 (HMAC-SHA1, AES-CBC-128). Optional; by default 17, falling back to 3 when the BMC does not offer 17.',
  ipmi_priv_level: 'Privilege level of the session: ADMINISTRATOR, OPERATOR or USER. Optional, default ADMINISTRATOR.',
  ipmi_bridging: 'Bridging to a satellite controller; only "no" (the default) is supported. Optional.',
  ipmi_protocol_version: 'IPMI protocol version; only "2.0" (RMCP+) is supported. Optional.',
});

const PRIV_LEVELS = Object.keys(PRIV_LEVEL_NUMBER) as IpmiPrivLevel[];

function optionalString(info: JsonObject, key: string): string | undefined {
  const v = info[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw fail('driverInfoNotString', { key, value: JSON.stringify(v) });
  return v;
}

function integerOf(info: JsonObject, key: string): number | undefined {
  const raw = info[key];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw fail('ipmiDriverInfoNotInteger', { key, value: JSON.stringify(raw) });
  return n;
}

/**
 * Parses the node's `driver_info` for IPMI. Throws MissingParameterValue when `ipmi_address` is absent
 * and InvalidParameterValue naming the key for any value out of range.
 */
export function parseIpmiDriverInfo(info: JsonObject): IpmiBmcInfo {
  const address = optionalString(info, 'ipmi_address')?.trim();
  if (!address) {
    throw fail('ipmiAddressMissing');
  }
  if (/\s/.test(address)) throw fail('ipmiAddressInvalid', { address: JSON.stringify(address) });

  const port = integerOf(info, 'ipmi_port') ?? 623;
  if (port < 1 || port > 65535) throw fail('ipmiPortOutOfRange', { port });

  const suite = integerOf(info, 'ipmi_cipher_suite');
  if (suite !== undefined && suite !== 3 && suite !== 17) {
    throw fail('ipmiCipherSuiteUnsupported', { suite });
  }

  const privRaw = optionalString(info, 'ipmi_priv_level')?.trim().toUpperCase() || 'ADMINISTRATOR';
  if (!PRIV_LEVELS.includes(privRaw as IpmiPrivLevel)) {
    throw fail('ipmiPrivLevelInvalid', { levels: PRIV_LEVELS.join(', '), value: JSON.stringify(info['ipmi_priv_level']) });
  }

  const bridging = optionalString(info, 'ipmi_bridging')?.trim().toLowerCase();
  if (bridging !== undefined && bridging !== '' && bridging !== 'no') {
    throw fail('ipmiBridgingUnsupported', { value: JSON.stringify(info['ipmi_bridging']) });
  }

  const version = optionalString(info, 'ipmi_protocol_version')?.trim();
  if (version !== undefined && version !== '' && version !== '2.0') {
    throw fail('ipmiProtocolVersionUnsupported', { version: JSON.stringify(version) });
  }

  // IPMI v2.0: RAKP 1 carries at most 16 bytes of user name; RMCP+ passwords (K_uid) have at most 20 bytes.
  const username = optionalString(info, 'ipmi_username') ?? '';
  if (Buffer.byteLength(username) > 16) throw fail('ipmiUsernameTooLong');
  const password = optionalString(info, 'ipmi_password') ?? '';
  if (Buffer.byteLength(password) > 20) throw fail('ipmiPasswordTooLong');

  return {
    address,
    port,
    username,
    password,
    cipherSuite: suite === undefined ? null : suite,
    privLevel: privRaw as IpmiPrivLevel,
  };
}

/** The BMC's `address:port`, as messages and the per-BMC scheduler name it. */
export function bmcKey(bmc: Pick<IpmiBmcInfo, 'address' | 'port'>): string {
  return bmc.address.includes(':') ? `[${bmc.address}]:${bmc.port}` : `${bmc.address}:${bmc.port}`;
}
