/** The narrow view of the IPMI client the power and management interfaces use. */
import type { IpmiBmcInfo } from './driver-info.js';

/** One IPMI request: network function, command and request data (IPMI v2.0 §5). */
export interface IpmiCommand {
  /** For messages: "Get Chassis Status". */
  name: string;
  netFn: number;
  cmd: number;
  data?: Uint8Array;
}

/** Sends IPMI requests to BMCs. */
export interface IpmiRequester {
  /**
   * Sends `command` to `bmc` and resolves with the response data after a zero completion code.
   * Throws an `IpmiError` (non-zero completion code, timeout, authentication) or the signal's reason.
   */
  request(bmc: IpmiBmcInfo, command: IpmiCommand, signal: AbortSignal): Promise<Uint8Array>;
}
