import type { Page, PageRequest } from "../pagination/paginate";
import type { Position } from "../pagination/cursor";
import { pageSize } from "../pagination/paginate";
import { appError } from "../errors/app-error";

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Relay arguments as a page request: `first`/`after` pages forward, `last`/`before` back. */
export function pageRequestFromArgs(args: ConnectionArgs, defaultSize = 20): PageRequest {
  if (args.last != null && args.before == null) {
    throw appError("validation_failed", { field: "last", message: "last: needs before (a cursor to page backwards from)" });
  }
  return { limit: pageSize(args.first ?? args.last ?? undefined, defaultSize), cursor: args.after ?? undefined, before: args.before ?? undefined };
}

/** A page as a Relay connection with `totalCount` (and `nodes`, for clients that skip edges). */
export function toConnection<T extends Position>(page: Page<T>) {
  const edges = page.items.map((node) => ({ cursor: page.cursorOf(node), node }));
  return {
    edges,
    nodes: page.items,
    totalCount: page.total,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: page.hasPrevious,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
