import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { unwrapResolverError } from "@apollo/server/errors";
import type { DatabaseAvailability } from "../db/availability";
import { AppError, appError } from "../errors/app-error";
import { graphqlErrorExtensions } from "../errors/render-error";
import type { Logger } from "../logger";
import { tokenLimitError } from "./query-limits";
import { withoutVariableValue } from "./variable-errors";

/** Apollo's own request errors (parse, validation, bad variables): the client's fault, a 400 class. */
const APOLLO_CLIENT_CODES = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_USER_INPUT", "BAD_REQUEST", "OPERATION_RESOLUTION_FAILURE", "PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_NOT_SUPPORTED"]);

/**
 * The catalogued error behind a GraphQL error: a resolver's, or a limit's (query-limits.ts),
 * which Apollo wraps in its validation or request error, or the parser's token limit.
 */
function cataloguedCause(formatted: GraphQLFormattedError, error: unknown): AppError | null {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) return original;
  if (original instanceof GraphQLError && original.originalError instanceof AppError) return original.originalError;
  return formatted.extensions?.code === "GRAPHQL_PARSE_FAILED" ? tokenLimitError(formatted.message) : null;
}

/** graphql-js's why of a variable that does not fit (the inner error's message, which ends the outer one). */
function variableReason(error: unknown): string | undefined {
  return error instanceof GraphQLError && error.originalError instanceof GraphQLError ? error.originalError.message : undefined;
}

/**
 * Every GraphQL error leaves with a catalogue code in `extensions.code`. Catalogued errors keep
 * theirs; Apollo's request errors become `validation_failed` with their message, and so do
 * variables that do not fit their types (over either transport, naming the field, never
 * repeating the value: variable-errors.ts); the database being unreachable or full becomes
 * `service_unavailable` or `storage_full` (counted by `availability`, which logs the outage);
 * anything else is masked as `internal_server_error` and logged, so no stack or internal
 * message escapes.
 */
export function formatGraphQLError(log: Logger, availability: DatabaseAvailability) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const catalogued = cataloguedCause(formatted, error) ?? availability.refusal(unwrapResolverError(error));
    if (catalogued) {
      return { message: catalogued.message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(catalogued) };
    }
    // Over HTTP Apollo has coded a variable that does not fit its type BAD_USER_INPUT; over
    // WebSocket graphql-js's error comes as it is. Either way its message loses the value.
    const variable = withoutVariableValue(formatted.message, variableReason(error));
    const apolloCode = formatted.extensions?.code;
    if (variable !== null || (typeof apolloCode === "string" && APOLLO_CLIENT_CODES.has(apolloCode))) {
      const message = variable?.message ?? formatted.message;
      const mapped = appError("validation_failed", { message, ...(variable && { field: variable.field }) });
      return { message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(mapped) };
    }
    log.error({ err: unwrapResolverError(error) }, "GraphQL resolver failed");
    const masked = appError("internal_server_error");
    return { message: masked.message, path: formatted.path, extensions: graphqlErrorExtensions(masked) };
  };
}
