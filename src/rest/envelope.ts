import { z } from "zod";
import type { Page } from "../pagination/paginate";

/** The success wrapper of owner and Variant A responses: `{ success, message, data }`. */
export function ok<T>(data: T, message = "OK") {
  return { success: true as const, message, data };
}

/** A list in the pagination envelope (docs/rest-api.md#pagination), items shaped by `view`. */
export function okPage<T, V>(page: Page<T>, view: (item: T) => V, message = "OK") {
  return ok(
    {
      items: page.items.map(view),
      pagination: { total: page.total, limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor, prevCursor: page.prevCursor },
    },
    message,
  );
}

/** The schema of `ok(data)`, for the OpenAPI document. */
export function okSchema<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}

const paginationSchema = z
  .object({
    total: z.int(),
    limit: z.int(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    prevCursor: z.string().nullable(),
  })
  .meta({ id: "Pagination" });

/** The schema of `okPage(page, view)` whose items are `item`. */
export function okPageSchema<Item extends z.ZodType>(item: Item) {
  return okSchema(z.object({ items: z.array(item), pagination: paginationSchema }));
}

/** An ISO 8601 instant in UTC, as every view writes dates. */
export const timestamp = z.string().meta({ format: "date-time" });

/** A decimal amount in major units, e.g. "2040.03" (negative for debits). */
export const decimalAmount = z.string().regex(/^-?\d+(\.\d+)?$/).meta({ examples: ["2040.03"] });

export const metadataView = z.record(z.string(), z.string());
