/**
 * Ramdisk-facing endpoints: `POST /v1/continue_inspection` (Ironic's built-in inspection, 1.84) takes the
 * agent's inspection data. It needs no credentials, as in Ironic (the agent has none), and no
 * microversion header (agents send none or an old one); the data itself is checked strictly.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import { one, type Query } from '../query.js';

export function ramdiskRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.post('/v1/continue_inspection', { bodyLimit: deps.config.max_inspection_body_bytes }, async (req, reply) => {
    const uuid = await deps.conductor.continueInspection(req.body, one(req.query as Query, 'node_uuid'));
    reply.code(202);
    return { uuid };
  });
}
