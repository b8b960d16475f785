import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { unwrapResolverError } from "@apollo/server/errors";
import type { DatabaseAvailability } from "../db/availability";
import { AppError, appError } from "../errors/app-error";
import { graphqlErrorExtensions } from "../errors/render-error";
import type { Logger } from "../logger";
import { tokenLimitError } from "./query-limits";

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

/**
 * The variable a refused value was given in, as the REST layer names fields: graphql-js says
 * `Variable "$input" got invalid value "x" at "input.slices[0].departureDate"; …` for a value
 * inside an input object, `Variable "$from" got invalid value …` for the variable itself.
 */
function variableField(message: string): string | undefined {
  const refused = /^Variable "\$(\w+)" got invalid value .*? at "([^"]+)"/.exec(message) ?? /^Variable "\$(\w+)" got invalid value/.exec(message);
  return refused ? (refused[2] ?? refused[1]) : undefined;
}

/**
 * Every GraphQL error leaves with a catalogue code in `extensions.code`. Catalogued errors keep
 * theirs; Apollo's request errors become `validation_failed` with their message; the database
 * being unreachable or full becomes `service_unavailable` or `storage_full` (counted by
 * `availability`, which logs the outage); anything else is masked as `internal_server_error` and
 * logged, so no stack or internal message escapes.
 */
export function formatGraphQLError(log: Logger, availability: DatabaseAvailability) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const catalogued = cataloguedCause(formatted, error) ?? availability.refusal(unwrapResolverError(error));
    if (catalogued) {
      return { message: catalogued.message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(catalogued) };
    }
    const apolloCode = formatted.extensions?.code;
    if (typeof apolloCode === "string" && APOLLO_CLIENT_CODES.has(apolloCode)) {
      const mapped = appError("validation_failed", { message: formatted.message, field: variableField(formatted.message) });
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: graphqlErrorExtensions(mapped) };
    }
    log.error({ err: unwrapResolverError(error) }, "GraphQL resolver failed");
    const masked = appError("internal_server_error");
    return { message: masked.message, path: formatted.path, extensions: graphqlErrorExtensions(masked) };
  };
}
