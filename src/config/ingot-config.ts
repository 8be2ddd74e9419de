/**
 * The whole configuration: one group per concern, each declared once with defaults and descriptions
 * (DESIGN §3.7). `main/` fills it from the config file, the environment and flags, validates it at
 * start-up and passes the frozen groups down.
 */
import { Type, type Static } from 'typebox';
import { ApiConfig } from './api.js';
import { BootConfig } from './boot.js';
import { ConductorConfig } from './conductor.js';
import { DatabaseConfig } from './database.js';
import { DhcpConfig } from './dhcp.js';
import { ImagesConfig } from './images.js';
import { InspectorConfigSchema } from './inspector.js';
import { IpmiConfig } from './ipmi.js';
import { LogConfig } from './log.js';
import { RedfishConfig } from './redfish.js';
import { TftpConfig } from './tftp.js';

export const IngotConfig = Type.Object({
  api: ApiConfig,
  conductor: ConductorConfig,
  database: DatabaseConfig,
  log: LogConfig,
  redfish: RedfishConfig,
  ipmi: IpmiConfig,
  inspector: InspectorConfigSchema,
  images: ImagesConfig,
  dhcp: DhcpConfig,
  tftp: TftpConfig,
  boot: BootConfig,
});
export type IngotConfig = Static<typeof IngotConfig>;
