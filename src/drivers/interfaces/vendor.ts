import type { Json, JsonObject } from '../../domain/node.js';
import type { DriverInterface, DriverTask } from './base.js';

export interface VendorMethod {
  http_methods: string[];
  description: string;
  async: boolean;
  require_exclusive_lock: boolean;
  attach: boolean;
}

/** Vendor passthru: extra methods a driver exposes under …/vendor_passthru. */
export interface VendorInterface extends DriverInterface {
  readonly methods: Readonly<Record<string, VendorMethod>>;
  /** Throws InvalidParameterValue for an unknown method. */
  call(task: DriverTask, method: string, httpMethod: string, args: JsonObject): Promise<Json>;
}

declare module './base.js' {
  interface InterfaceContracts {
    vendor: VendorInterface;
  }
}
