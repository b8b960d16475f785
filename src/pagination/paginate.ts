import { appError } from "../errors/app-error";
import type { CursorCodec, Direction, Position } from "./cursor";

export const MAX_PAGE_SIZE = 100;

/**
 * What a caller asked for: a page size and, past the first page, an opaque cursor to continue
 * from. A `cursor` goes the way it was issued for (REST `nextCursor` / `prevCursor`, GraphQL
 * `after`); `before` (GraphQL) always pages back towards newer items.
 */
export interface PageRequest {
  limit: number;
  cursor?: string;
  before?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  hasMore: boolean;
  hasPrevious: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
  /** A cursor that continues after this item (GraphQL edge cursors). */
  cursorOf(item: Position): string;
}

/** The keyset query one page needs, in the shape Prisma's `findMany` takes. */
export interface KeysetQuery {
  where: object;
  orderBy: Array<{ createdAt: "asc" | "desc" } | { id: "asc" | "desc" }>;
  take: number;
}

/** A page's walk: beyond which item (none: from the start), which way, and how many items. */
export interface Keyset {
  anchor?: Position;
  descending: boolean;
  take: number;
}

export interface PaginateOptions<T extends Position> {
  /** Names the list (and its filters) so a cursor cannot be replayed against another list. */
  list: string;
  request: PageRequest;
  cursors: CursorCodec;
  count: () => Promise<number>;
  /** `keyset` says the same as `query` for lists that are not one table's rows. */
  fetch: (query: KeysetQuery, keyset: Keyset) => Promise<T[]>;
  /** Oldest first (an order's history) instead of newest first. */
  oldestFirst?: boolean;
}

/**
 * A page size from a query string or GraphQL argument: 1–`max` (100 for paged lists), else 400
 * `LIMIT_OUT_OF_RANGE`, whose message and suggested action say that range.
 */
export function pageSize(limit: number | undefined, fallback: number, max = MAX_PAGE_SIZE): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw appError("LIMIT_OUT_OF_RANGE", { field: "limit", message: `limit: must be between 1 and ${max}`, action: `Send a limit from 1 to ${max}.` });
  }
  return limit;
}

/**
 * One keyset page, newest first (`createdAt` desc, then id desc) unless `oldestFirst`, stable
 * under concurrent inserts: a page is defined by the item it continues from, not by an offset.
 */
export async function paginate<T extends Position>(options: PaginateOptions<T>): Promise<Page<T>> {
  const { request, list, cursors } = options;
  const { backwards, anchor } = startingPoint(cursors, list, request);
  // Reading towards older items (the next page of a newest-first list, or paging back in an oldest-first one) walks down.
  const descending = backwards === (options.oldestFirst ?? false);
  const sort = descending ? "desc" : "asc";
  const take = request.limit + 1;
  const [rows, total] = await Promise.all([
    options.fetch(
      {
        where: anchor ? keysetWhere(anchor, descending ? "lt" : "gt") : {},
        orderBy: [{ createdAt: sort }, { id: sort }],
        take,
      },
      { anchor, descending, take },
    ),
    options.count(),
  ]);
  const overflow = rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (backwards) items.reverse();
  // Moving forward, newer items exist exactly when we continued from a cursor; moving back, older ones do.
  const hasMore = backwards ? true : overflow;
  const hasPrevious = backwards ? overflow : anchor !== undefined;
  const cursorAt = (item: T | undefined, direction: Direction) => (item ? cursors.encode(list, item, direction) : null);
  return {
    items,
    total,
    limit: request.limit,
    hasMore: hasMore && items.length > 0,
    hasPrevious: hasPrevious && items.length > 0,
    nextCursor: hasMore ? cursorAt(items.at(-1), "next") : null,
    prevCursor: hasPrevious ? cursorAt(items[0], "prev") : null,
    cursorOf: (item) => cursors.encode(list, item, "next"),
  };
}

/**
 * One page of a short list read whole (a tenant's webhook endpoints), by the same keyset rules
 * and cursors as `paginate`: items after the anchor, in order, as the database would give them.
 */
export function paginateItems<T extends Position>(items: readonly T[], options: Pick<PaginateOptions<T>, "list" | "request" | "cursors">): Promise<Page<T>> {
  return paginate({
    ...options,
    count: async () => items.length,
    fetch: async (_query, { anchor, descending, take }) => {
      const direction = descending ? -1 : 1;
      return items
        .filter((item) => anchor === undefined || compareKeys(item, anchor) * direction > 0)
        .sort((a, b) => compareKeys(a, b) * direction)
        .slice(0, take);
    },
  });
}

/** The order of two items by (createdAt, id), oldest first. */
function compareKeys(a: Position, b: Position): number {
  const byTime = a.createdAt.getTime() - b.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function keysetWhere(anchor: Position, op: "lt" | "gt"): object {
  return { OR: [{ createdAt: { [op]: anchor.createdAt } }, { createdAt: anchor.createdAt, id: { [op]: anchor.id } }] };
}

function startingPoint(cursors: CursorCodec, list: string, request: PageRequest): { backwards: boolean; anchor?: Position } {
  if (request.before !== undefined) return { backwards: true, anchor: cursors.decode(list, request.before).position };
  if (request.cursor === undefined) return { backwards: false };
  const { position, direction } = cursors.decode(list, request.cursor);
  return { backwards: direction === "prev", anchor: position };
}
