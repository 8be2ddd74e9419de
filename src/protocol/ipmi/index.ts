/** The IPMI v2.0 / RMCP+ wire codec, shared by Ingot's IPMI client (drivers/ipmi) and BMC emulator (bmc/ipmi). */
export * from './errors.js';
export * from './rmcp.js';
export * from './message.js';
export * from './cipher-suites.js';
export * from './session-keys.js';
export * from './session-packet.js';
export * from './rakp.js';
export * from './commands.js';
export * from './commands-app.js';
export * from './commands-chassis.js';
export * from './commands-transport.js';
