/** An in-memory BMC behind the {@link IpmiRequester} interface, for the driver unit tests. */
import type { IpmiBmcInfo } from './driver-info.js';
import { completionError } from './errors.js';
import type { IpmiCommand, IpmiRequester } from './requester.js';

export interface FakeBmc extends IpmiRequester {
  power: boolean;
  /** Boot flags parameter 5 data bytes 1..5 as last set. */
  bootFlags: number[];
  /** Reads of Get Chassis Status that still report the old power after a Chassis Control. */
  lag: number;
  /** When set, soft off is ignored (an OS that does not react to ACPI). */
  ignoreSoftOff: boolean;
  /** Commands received, as `netFn/cmd:data`. */
  log: string[];
}

export function fakeBmc(): FakeBmc {
  let pending: boolean | undefined;
  let lagLeft = 0;
  const bmc: FakeBmc = {
    power: false,
    bootFlags: [0, 0, 0, 0, 0],
    lag: 0,
    ignoreSoftOff: false,
    log: [],
    async request(_info: IpmiBmcInfo, c: IpmiCommand, signal: AbortSignal) {
      signal.throwIfAborted();
      const data = Array.from(c.data ?? []);
      bmc.log.push(`${c.netFn.toString(16)}/${c.cmd.toString(16)}:${data.map((b) => b.toString(16)).join(',')}`);
      if (c.netFn === 0 && c.cmd === 0x01) {
        if (pending !== undefined && lagLeft-- <= 0) {
          bmc.power = pending;
          pending = undefined;
        }
        return Uint8Array.of(bmc.power ? 1 : 0, 0, 0);
      }
      if (c.netFn === 0 && c.cmd === 0x02) {
        const action = data[0];
        lagLeft = bmc.lag;
        if (action === 0 || (action === 5 && !bmc.ignoreSoftOff)) pending = false;
        else if (action === 1 || action === 2) pending = true;
        else if (action === 4 || action === 5) return new Uint8Array();
        else throw completionError('fake', c.name, 0xcc);
        if (bmc.lag === 0) {
          bmc.power = pending;
          pending = undefined;
        }
        return new Uint8Array();
      }
      if (c.netFn === 0 && c.cmd === 0x08) {
        if (data[0] === 5) bmc.bootFlags = data.slice(1);
        else if (data[0] !== 3) throw completionError('fake', c.name, 0x80);
        return new Uint8Array();
      }
      if (c.netFn === 0 && c.cmd === 0x09) return Uint8Array.of(1, 5, ...bmc.bootFlags);
      if (c.netFn === 0x0c && c.cmd === 0x02) {
        if (data[0] === 0x0e) throw completionError('fake', c.name, 0xcc);
        return Uint8Array.of(0x11, 192, 0, 2, 10);
      }
      throw completionError('fake', c.name, 0xc1);
    },
  };
  return bmc;
}
