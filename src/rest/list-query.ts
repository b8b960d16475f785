import { z } from "zod";
import { appError } from "../errors/app-error";
import { pageSize, type PageRequest } from "../pagination/paginate";

/**
 * `limit` and `cursor` of every paginated REST list (docs/rest-api.md#pagination). `after` is accepted as
 * another name for `cursor`, and `before` pages back (Variant B listings). A list's own filters
 * extend it; any other parameter is 400 `validation_failed` naming it, so a misspelt filter is
 * never silently ignored (`?passenger_name=` on a list without that filter once listed everything).
 */
export const listQuery = z.strictObject(
  {
    limit: z.string().optional(),
    cursor: z.string().optional(),
    after: z.string().optional(),
    before: z.string().optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a parameter of this list" : undefined) },
);

/** A page request from `?limit=&cursor=`; a non-integer or out-of-range limit is `LIMIT_OUT_OF_RANGE`. */
export function pageRequestFromQuery(query: z.infer<typeof listQuery>, defaultLimit = 20): PageRequest {
  const limit = query.limit === undefined ? undefined : /^-?\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN;
  if (Number.isNaN(limit)) throw appError("LIMIT_OUT_OF_RANGE", { field: "limit" });
  return { limit: pageSize(limit, defaultLimit), cursor: query.cursor ?? query.after, before: query.before };
}
