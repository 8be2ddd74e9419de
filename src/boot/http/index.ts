/** The HTTP boot server and the iPXE dispatcher it renders. */
export { createHttpBootServer, defaultBootRoutes, type HttpBootRoute, type HttpBootServer, type HttpBootServerOptions, type RenderedFile } from './server.js';
export { renderBootDispatcher } from './boot-script.js';
export { parseRange, type RangeRequest } from './range.js';
