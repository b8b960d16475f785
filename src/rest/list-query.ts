import { z } from "zod";
import { MAX_PAGE_SIZE, type PageRequest } from "../pagination/paginate";

/**
 * A page size as a query string gives it: digits only ("1e1", "0x0A" and "10.0" are not 10),
 * 1–`max`, else 400 `LIMIT_OUT_OF_RANGE` naming `limit`, suggesting that range (a location
 * lookup's is 1–15, not the 1–100 of paged lists). The document shows it as the integer it is.
 */
export function pageLimit(max: number) {
  return z
    .string()
    .superRefine((text, context) => {
      if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > max) {
        context.addIssue({ code: "custom", message: `must be between 1 and ${max}`, params: { errorCode: "LIMIT_OUT_OF_RANGE", action: `Send a limit from 1 to ${max}.` } });
      }
    })
    .meta({ type: "integer", minimum: 1, maximum: max })
    .transform(Number);
}

/** The query of a REST list: exactly these parameters, any other 400 `validation_failed` naming it. */
export function listParameters<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape, { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a parameter of this list" : undefined) });
}

/**
 * `limit` and `cursor` of every paginated REST list (docs/rest-api.md#pagination). `after` is accepted as
 * another name for `cursor`, and `before` pages back (Variant B listings). A list's own filters
 * extend it; any other parameter is 400 `validation_failed` naming it, so a misspelt filter is
 * never silently ignored (`?passenger_name=` on a list without that filter once listed everything).
 */
export const listQuery = listParameters({
  limit: pageLimit(MAX_PAGE_SIZE).optional(),
  cursor: z.string().optional(),
  after: z.string().optional(),
  before: z.string().optional(),
});

/** A page request from `?limit=&cursor=`, `defaultLimit` items without a limit. */
export function pageRequestFromQuery(query: z.output<typeof listQuery>, defaultLimit = 20): PageRequest {
  return { limit: query.limit ?? defaultLimit, cursor: query.cursor ?? query.after, before: query.before };
}
