import type { Page } from "../pagination/paginate";

/** The success wrapper of owner and Variant A responses: `{ success, message, data }`. */
export function ok<T>(data: T, message = "OK") {
  return { success: true as const, message, data };
}

/** A list in the §2.9 pagination envelope, items shaped by `view`. */
export function okPage<T, V>(page: Page<T>, view: (item: T) => V, message = "OK") {
  return ok(
    {
      items: page.items.map(view),
      pagination: { total: page.total, limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor, prevCursor: page.prevCursor },
    },
    message,
  );
}
