/**
 * /redfish/v1/TaskService and its Tasks. A task's URI is also its task monitor: 202 Accepted with the
 * Task while it runs, 200 with the finished Task afterwards (DSP0266 §12.2).
 */
import type { FastifyInstance } from 'fastify';
import { pathOf, principalOf, type EmulatorContext } from '../context.js';
import { notFound } from '../errors.js';
import { collection, odata, ref, V1 } from '../odata.js';
import { renderTask, taskUri } from '../tasks.js';

export function taskRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(`${V1}/TaskService`, async () => ({
    ...odata(`${V1}/TaskService`, '#TaskService.v1_1_4.TaskService'),
    Id: 'TaskService',
    Name: 'Task Service',
    ServiceEnabled: true,
    CompletedTaskOverWritePolicy: 'Oldest',
    LifeCycleEventOnTaskStateChange: false,
    DateTime: new Date().toISOString(),
    Status: { State: 'Enabled', Health: 'OK' },
    Tasks: ref(`${V1}/TaskService/Tasks`),
  }));

  app.get(`${V1}/TaskService/Tasks`, async (req) => {
    const p = principalOf(req);
    const mine = ctx.tasks.list().filter((t) => t.principal.username === p.username && t.principal.password === p.password);
    return collection(`${V1}/TaskService/Tasks`, 'Task Collection', 'TaskCollection', mine.map((t) => taskUri(t.id)));
  });

  app.get<{ Params: { id: string } }>(`${V1}/TaskService/Tasks/:id`, async (req, reply) => {
    const p = principalOf(req);
    const task = ctx.tasks.get(req.params.id);
    const mine = task && task.principal.username === p.username && task.principal.password === p.password;
    if (!task || !mine) throw notFound(pathOf(req));
    if (task.state === 'Running') return reply.code(202).header('location', taskUri(task.id)).send(renderTask(task));
    return renderTask(task);
  });
}
