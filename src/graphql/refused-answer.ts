import type { GraphQLFormattedError } from "graphql";

/** The statuses of an answer the service refused for now (the database unreachable or full): retry, do not give up. */
const REFUSAL_STATUSES = new Set([503, 507]);

/**
 * The HTTP status and Retry-After of a GraphQL answer holding an error the service refused for
 * now (503 `service_unavailable`, 507 `storage_full`), or null. Such an answer is incomplete
 * for a reason that passes, so it carries that status, as the same refusal over REST does, and
 * clients and proxies retry it instead of reading a 200. Both HTTP pipelines apply it.
 */
export function refusedAnswer(errors: ReadonlyArray<GraphQLFormattedError> | undefined): { status: number; retryAfterSeconds: number | undefined } | null {
  for (const error of errors ?? []) {
    const status = error.extensions?.statusCode;
    if (typeof status === "number" && REFUSAL_STATUSES.has(status)) {
      const retryAfter = error.extensions?.retryAfterSeconds;
      return { status, retryAfterSeconds: typeof retryAfter === "number" ? retryAfter : undefined };
    }
  }
  return null;
}
