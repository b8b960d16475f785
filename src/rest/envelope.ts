import { z } from "zod";
import type { Page } from "../pagination/paginate";
import { JsonText } from "./rendered-responses";

/** The success wrapper of owner and Variant A responses: `{ success, message, data }`. */
export function ok<T>(data: T, message = "OK") {
  return { success: true as const, message, data };
}

/** A list in the pagination envelope (docs/rest-api.md#pagination), items shaped by `view`. */
export function okPage<T, V>(page: Page<T>, view: (item: T) => V, message = "OK") {
  return ok({ items: page.items.map(view), pagination: paginationOf(page) }, message);
}

function paginationOf(page: Page<unknown>) {
  return { total: page.total, limit: page.limit, hasMore: page.hasMore, nextCursor: page.nextCursor, prevCursor: page.prevCursor };
}

/**
 * `ok(data)` whose data is JSON text already (a webhook body), written into the answer as it is,
 * byte for byte; `Shape` is what the text holds.
 */
export function okText<Shape>(data: string, message = "OK"): JsonText<ReturnType<typeof ok<Shape>>> {
  return new JsonText(`{"success":true,"message":${JSON.stringify(message)},"data":${data}}`);
}

/** `okPage` whose items are JSON texts already (webhook bodies), each written into the answer byte for byte. */
export function okPageOfTexts<T, Item>(page: Page<T>, text: (item: T) => string, message = "OK"): JsonText<ReturnType<typeof okPage<T, Item>>> {
  return okText(`{"items":[${page.items.map(text).join(",")}],"pagination":${JSON.stringify(paginationOf(page))}}`, message);
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
