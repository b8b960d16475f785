import type { GraphQLFormattedError } from "graphql";
import { unwrapResolverError } from "@apollo/server/errors";
import { AppError, appError } from "../errors/app-error";
import { graphqlErrorExtensions } from "../errors/render-error";
import type { Logger } from "../logger";

/** Apollo's own request errors (parse, validation, bad variables): the client's fault, a 400 class. */
const APOLLO_CLIENT_CODES = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_USER_INPUT", "BAD_REQUEST", "OPERATION_RESOLUTION_FAILURE", "PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_NOT_SUPPORTED"]);

/**
 * Every GraphQL error leaves with a catalogue code in `extensions.code`. Catalogued errors keep
 * theirs; Apollo's request errors become `validation_failed` with their message; anything else
 * is masked as `internal_server_error` and logged, so no stack or internal message escapes.
 */
export function formatGraphQLError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return { message: original.message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(original) };
    }
    const apolloCode = formatted.extensions?.code;
    if (typeof apolloCode === "string" && APOLLO_CLIENT_CODES.has(apolloCode)) {
      const mapped = appError("validation_failed", { message: formatted.message });
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(mapped) };
    }
    log.error({ err: original }, "GraphQL resolver failed");
    const masked = appError("internal_server_error");
    return { message: masked.message, path: formatted.path, extensions: graphqlErrorExtensions(masked) };
  };
}
