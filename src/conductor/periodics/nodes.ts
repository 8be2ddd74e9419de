/** Reading nodes for the periodic tasks: page by page, so a large fleet is never loaded at once. */
import type { Node } from '../../domain/node.js';
import type { ConductorContext } from '../context.js';

const PAGE = 500;

/** Every node matching `filter`, page by page. */
export async function* eachNode(ctx: ConductorContext, filter: Parameters<ConductorContext['store']['nodes']['list']>[0]): AsyncGenerator<Node> {
  let marker: string | undefined;
  for (;;) {
    const page = await ctx.store.nodes.list(filter, { limit: PAGE, marker, sortKey: 'id', sortDir: 'asc' });
    yield* page;
    if (page.length < PAGE) return;
    marker = (page[page.length - 1] as Node).uuid;
  }
}

