import type { DriverInterface, DriverTask } from './base.js';

export interface ConsoleInfo {
  type: string;
  url: string;
}

/** Serial/graphical console access. */
export interface ConsoleInterface extends DriverInterface {
  startConsole(task: DriverTask): Promise<void>;
  stopConsole(task: DriverTask): Promise<void>;
  getConsole(task: DriverTask): Promise<ConsoleInfo>;
}

declare module './base.js' {
  interface InterfaceContracts {
    console: ConsoleInterface;
  }
}
