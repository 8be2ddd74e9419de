/**
 * The IPMI commands an emulated BMC answers inside a session (and the two it answers before one),
 * translated into {@link Machine} calls. Unknown commands get completion code 0xC1 (invalid command).
 */
import {
  CHANNEL_MEDIUM_LAN,
  CHANNEL_PROTOCOL_IPMB,
  cipherSuiteRecords,
  CURRENT_CHANNEL,
  decodeChannelAuthCapsRequest,
  decodeCipherSuitesRequest,
  decodeCloseSessionRequest,
  decodeSetSessionPrivilegeRequest,
  encodeChannelAuthCapsResponse,
  encodeChannelInfoResponse,
  encodeCipherSuitesResponse,
  encodeDeviceIdResponse,
  encodeSetSessionPrivilegeResponse,
  IPMI_FORUM_IANA,
} from '../../protocol/ipmi/commands-app.js';
import { CHASSIS_CONTROL, decodeChassisControlRequest, decodeGetBootOptionRequest, decodeSetBootOptionRequest, encodeChassisStatusResponse, encodeGetBootOptionResponse, POWER_RESTORE_POLICY } from '../../protocol/ipmi/commands-chassis.js';
import { decodeGetLanConfigRequest, encodeGetLanConfigResponse, encodeIpv4, encodeMac, IP_SOURCE, LAN_PARAM } from '../../protocol/ipmi/commands-transport.js';
import { CMD, COMPLETION, NETFN } from '../../protocol/ipmi/commands.js';
import { IpmiDecodeError } from '../../protocol/ipmi/errors.js';
import { responseTo, type IpmiRequest, type IpmiResponse } from '../../protocol/ipmi/message.js';
import { PRIVILEGE } from '../../protocol/ipmi/rakp.js';
import type { Machine, MachinePowerAction } from '../machine.js';
import { BootOptions } from './boot-options.js';
import { bmcGuid, bmcMac, EMULATOR_DEVICE_ID, lanAddress, lanNetmask } from './identity.js';

/** The LAN channel number the emulated BMC reports for "this channel". */
export const LAN_CHANNEL = 1;

/** What a command handler may see and change of the session it runs in. */
export interface CommandSession {
  readonly bmcSessionId: number;
  /** The highest privilege the session may reach. */
  readonly maxPrivilege: number;
  privilege: number;
  /** Asks the session table to close a session (this one or another) after the answer is sent. */
  close(bmcSessionId: number): boolean;
  /** Active sessions on the channel, for Get Channel Info. */
  activeSessions(): number;
}

/** Per-machine BMC state that outlives sessions. */
export class MachineBmc {
  readonly bootOptions: BootOptions;
  /** Last power event byte of Get Chassis Status (bit 4: powered on by an IPMI command). */
  lastPowerEvent = 0;

  constructor(
    readonly machine: Machine,
    readonly host: string,
  ) {
    this.bootOptions = new BootOptions(machine);
  }
}

const CONTROL_ACTIONS: Record<number, MachinePowerAction> = {
  [CHASSIS_CONTROL.POWER_DOWN]: 'off',
  [CHASSIS_CONTROL.POWER_UP]: 'on',
  [CHASSIS_CONTROL.POWER_CYCLE]: 'cycle',
  [CHASSIS_CONTROL.HARD_RESET]: 'reset',
  [CHASSIS_CONTROL.PULSE_DIAG]: 'nmi',
  [CHASSIS_CONTROL.SOFT_SHUTDOWN]: 'soft-off',
};

/** Get Channel Authentication Capabilities: RMCP+ only, named users with passwords, no anonymous login. */
export function channelAuthCaps(req: IpmiRequest): IpmiResponse {
  const r = decodeChannelAuthCapsRequest(req.data);
  if (r.channel !== CURRENT_CHANNEL && r.channel !== LAN_CHANNEL) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
  const data = encodeChannelAuthCapsResponse({
    channel: LAN_CHANNEL,
    // NOTE: no v1.5 authentication type is offered: the emulator speaks only IPMI v2.0 / RMCP+ sessions.
    authTypes: 0,
    extended: r.v2,
    kgSet: false,
    perMessageAuthDisabled: false,
    userLevelAuthDisabled: false,
    nonNullUsernames: true,
    nullUsernames: false,
    anonymousLogin: false,
    supportsV15: false,
    supportsV20: r.v2,
    oemId: 0,
    oemAux: 0,
  });
  return responseTo(req, COMPLETION.OK, data);
}

/** Get Channel Cipher Suites: suites 3 and 17, 16 record bytes per list index. */
export function channelCipherSuites(req: IpmiRequest): IpmiResponse {
  const r = decodeCipherSuitesRequest(req.data);
  if (r.channel !== CURRENT_CHANNEL && r.channel !== LAN_CHANNEL) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
  return responseTo(req, COMPLETION.OK, encodeCipherSuitesResponse(LAN_CHANNEL, cipherSuiteRecords(), r.listIndex));
}

/** Commands allowed outside a session (pre-session, as tools probe a BMC before logging in). */
export function sessionlessCommand(req: IpmiRequest): IpmiResponse | undefined {
  if (req.netFn !== NETFN.APP) return undefined;
  if (req.cmd === CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES) return channelAuthCaps(req);
  if (req.cmd === CMD.APP.GET_CHANNEL_CIPHER_SUITES) return channelCipherSuites(req);
  return undefined;
}

function lanParameter(bmc: MachineBmc, parameter: number): Buffer | undefined {
  const ip = lanAddress(bmc.host);
  switch (parameter) {
    case LAN_PARAM.SET_IN_PROGRESS:
      return Buffer.from([0x00]);
    case LAN_PARAM.AUTH_TYPE_SUPPORT:
      return Buffer.from([0x00]);
    case LAN_PARAM.AUTH_TYPE_ENABLES:
      return Buffer.alloc(5);
    case LAN_PARAM.IP_ADDRESS:
      return encodeIpv4(ip);
    case LAN_PARAM.IP_ADDRESS_SOURCE:
      return Buffer.from([IP_SOURCE.STATIC]);
    case LAN_PARAM.MAC_ADDRESS:
      return encodeMac(bmcMac(bmc.machine.name));
    case LAN_PARAM.SUBNET_MASK:
      return encodeIpv4(lanNetmask(ip));
    case LAN_PARAM.IPV4_HEADER_PARAMS:
      return Buffer.from([0x40, 0x40, 0x10]); // TTL 64, don't fragment, TOS "minimize delay"
    case LAN_PARAM.DEFAULT_GATEWAY:
      return encodeIpv4('0.0.0.0');
    case LAN_PARAM.DEFAULT_GATEWAY_MAC:
      return Buffer.alloc(6);
    case LAN_PARAM.VLAN_ID:
      return Buffer.from([0x00, 0x00]);
    case LAN_PARAM.CIPHER_SUITE_SUPPORT:
      return Buffer.from([2]);
    case LAN_PARAM.CIPHER_SUITE_ENTRIES:
      return Buffer.from([0x00, 3, 17]);
    case LAN_PARAM.CIPHER_SUITE_PRIVILEGES:
      // reserved byte, then one nibble per cipher suite entry: administrator for 3 and 17
      return Buffer.from([0x00, 0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
    default:
      return undefined;
  }
}

function requirePrivilege(session: CommandSession, level: number): boolean {
  return session.privilege >= level;
}

/**
 * Answers one request of an active session. Malformed request data gets 0xC7 (length invalid); a
 * machine back-end failure gets 0xFF (unspecified error).
 */
export async function sessionCommand(bmc: MachineBmc, session: CommandSession, req: IpmiRequest): Promise<IpmiResponse> {
  try {
    return await dispatch(bmc, session, req);
  } catch (err) {
    if (err instanceof IpmiDecodeError) return responseTo(req, COMPLETION.DATA_LENGTH_INVALID);
    return responseTo(req, COMPLETION.UNSPECIFIED);
  }
}

async function dispatch(bmc: MachineBmc, session: CommandSession, req: IpmiRequest): Promise<IpmiResponse> {
  const machine = bmc.machine;
  if (req.netFn === NETFN.APP) {
    switch (req.cmd) {
      case CMD.APP.GET_DEVICE_ID:
        return responseTo(req, COMPLETION.OK, encodeDeviceIdResponse(EMULATOR_DEVICE_ID));
      case CMD.APP.GET_DEVICE_GUID:
        return responseTo(req, COMPLETION.OK, bmcGuid(machine));
      case CMD.APP.GET_CHANNEL_AUTH_CAPABILITIES:
        return channelAuthCaps(req);
      case CMD.APP.GET_CHANNEL_CIPHER_SUITES:
        return channelCipherSuites(req);
      case CMD.APP.SET_SESSION_PRIVILEGE_LEVEL: {
        const wanted = decodeSetSessionPrivilegeRequest(req.data);
        if (wanted === 0) return responseTo(req, COMPLETION.OK, encodeSetSessionPrivilegeResponse(session.privilege));
        if (wanted < PRIVILEGE.USER || wanted > PRIVILEGE.OEM) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
        // 0x81: requested level not available for this user (table 22-24)
        if (wanted > session.maxPrivilege) return responseTo(req, 0x81);
        session.privilege = wanted;
        return responseTo(req, COMPLETION.OK, encodeSetSessionPrivilegeResponse(wanted));
      }
      case CMD.APP.CLOSE_SESSION: {
        const id = decodeCloseSessionRequest(req.data);
        const target = id === 0 ? session.bmcSessionId : id;
        if (target !== session.bmcSessionId && !requirePrivilege(session, PRIVILEGE.ADMINISTRATOR)) return responseTo(req, COMPLETION.INSUFFICIENT_PRIVILEGE);
        // 0x87: invalid session id in request (table 22-25)
        return session.close(target) ? responseTo(req, COMPLETION.OK) : responseTo(req, 0x87);
      }
      case CMD.APP.GET_CHANNEL_INFO: {
        const channel = (req.data[0] ?? 0xff) & 0x0f;
        if (channel !== CURRENT_CHANNEL && channel !== LAN_CHANNEL) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
        const info = encodeChannelInfoResponse({
          channel: LAN_CHANNEL,
          medium: CHANNEL_MEDIUM_LAN,
          protocol: CHANNEL_PROTOCOL_IPMB,
          sessionSupport: 2, // multi-session
          activeSessions: Math.min(session.activeSessions(), 63),
          vendorId: IPMI_FORUM_IANA,
          aux: Buffer.alloc(2),
        });
        return responseTo(req, COMPLETION.OK, info);
      }
    }
  }
  if (req.netFn === NETFN.CHASSIS) {
    switch (req.cmd) {
      case CMD.CHASSIS.GET_CHASSIS_STATUS: {
        const on = (await machine.power()) === 'on';
        const data = encodeChassisStatusResponse({
          powerOn: on,
          powerOverload: false,
          interlock: false,
          powerFault: false,
          powerControlFault: false,
          restorePolicy: POWER_RESTORE_POLICY.ALWAYS_OFF,
          lastPowerEvent: bmc.lastPowerEvent,
          misc: 0x00,
          frontPanel: 0x00,
        });
        return responseTo(req, COMPLETION.OK, data);
      }
      case CMD.CHASSIS.CHASSIS_CONTROL: {
        if (!requirePrivilege(session, PRIVILEGE.OPERATOR)) return responseTo(req, COMPLETION.INSUFFICIENT_PRIVILEGE);
        const action = CONTROL_ACTIONS[decodeChassisControlRequest(req.data)];
        if (action === undefined) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
        await machine.act(action);
        if (action === 'on' || action === 'cycle' || action === 'reset') bmc.lastPowerEvent = 0x10;
        return responseTo(req, COMPLETION.OK);
      }
      case CMD.CHASSIS.SET_SYSTEM_BOOT_OPTIONS: {
        if (!requirePrivilege(session, PRIVILEGE.OPERATOR)) return responseTo(req, COMPLETION.INSUFFICIENT_PRIVILEGE);
        const result = bmc.bootOptions.set(decodeSetBootOptionRequest(req.data));
        return responseTo(req, result.completionCode);
      }
      case CMD.CHASSIS.GET_SYSTEM_BOOT_OPTIONS: {
        const r = decodeGetBootOptionRequest(req.data);
        const result = bmc.bootOptions.get(r.parameter);
        if (result.completionCode !== COMPLETION.OK || !result.data) return responseTo(req, result.completionCode);
        return responseTo(req, COMPLETION.OK, encodeGetBootOptionResponse({ version: 1, parameter: r.parameter, invalid: false, data: result.data }));
      }
    }
  }
  if (req.netFn === NETFN.TRANSPORT && req.cmd === CMD.TRANSPORT.GET_LAN_CONFIG) {
    const r = decodeGetLanConfigRequest(req.data);
    if (r.channel !== LAN_CHANNEL && r.channel !== CURRENT_CHANNEL) return responseTo(req, COMPLETION.INVALID_DATA_FIELD);
    if (r.revisionOnly) return responseTo(req, COMPLETION.OK, encodeGetLanConfigResponse(Buffer.alloc(0)));
    const data = lanParameter(bmc, r.parameter);
    if (!data) return responseTo(req, COMPLETION.PARAMETER_NOT_SUPPORTED);
    return responseTo(req, COMPLETION.OK, encodeGetLanConfigResponse(data));
  }
  return responseTo(req, COMPLETION.INVALID_COMMAND);
}
