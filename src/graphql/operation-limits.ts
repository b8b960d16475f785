import type { ApolloServerPlugin } from "@apollo/server";
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema } from "graphql";
import type { RequestContext } from "../context/request-context";
import { appError } from "../errors/app-error";
import { writeRateLimitHeaders } from "../rate-limits/headers";
import type { RateLimitVerdict } from "../rate-limits/rate-limiter";
import { tokensForCost } from "../rate-limits/cost-tokens";
import { calendarFieldCosts } from "./fare-calendar.resolvers";
import { MAX_PRICED_FIELDS, operationCost } from "./query-cost";
import { GRAPHQL_LIMITS, limitError, withoutSuggestions } from "./query-limits";

export interface OperationToCharge {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  ctx: RequestContext;
  /** Tokens already taken for this operation (the one every HTTP request takes on arrival). */
  prepaid: number;
}

/**
 * Prices a validated operation, refuses it above the cost limit or when it cannot be priced
 * (400 `query_too_complex`), and takes its rate-limit tokens beyond those prepaid. Returns the
 * take's verdict (null when nothing was taken); the caller reports it and refuses the operation
 * when it is not allowed.
 */
export async function chargeOperation(operation: OperationToCharge): Promise<RateLimitVerdict | null> {
  const cost = operationCost(operation.schema, operation.document, operation.operationName, operation.variables, calendarFieldCosts(operation.ctx));
  if (cost === null) {
    throw limitError(appError("query_too_complex", { message: `The operation cannot be priced: its fragments spread into more than ${MAX_PRICED_FIELDS} fields.` }));
  }
  if (cost > GRAPHQL_LIMITS.maxCost) {
    throw limitError(appError("query_too_complex", { message: `The operation costs ${cost}; the limit is ${GRAPHQL_LIMITS.maxCost}.` }));
  }
  const limiter = operation.ctx.services.rateLimiter;
  if (!limiter) return null;
  // A bucket's worth at most, so an operation within the cost limit passes when the bucket is full.
  const tokens = Math.min(tokensForCost(cost), limiter.capacity) - operation.prepaid;
  return tokens > 0 ? limiter.take(operation.ctx.principal.keyId, tokens) : null;
}

/** The GraphQL error for a refused take: 429 `rate_limit_exceeded`. */
export function rateLimitedError(verdict: RateLimitVerdict) {
  return limitError(appError("rate_limit_exceeded", { retryAfterSeconds: verdict.retryAfterSeconds }));
}

/** Live tenants get validation errors without graphql-js's "Did you mean …?" (the schema is not spelled out to them); sandbox keeps them. */
export function hidesSuggestions(ctx: RequestContext): boolean {
  return ctx.principal.kind === "tenant" && ctx.principal.environment === "live";
}

/** The errors of an answer as this caller may read them: without suggestions for live tenants. */
export function errorsForCaller(errors: ReadonlyArray<GraphQLFormattedError>, ctx: RequestContext): ReadonlyArray<GraphQLFormattedError> {
  return hidesSuggestions(ctx) ? errors.map((error) => ({ ...error, message: withoutSuggestions(error.message) })) : errors;
}

/**
 * HTTP GraphQL: charges each operation once Apollo has resolved it (the depth and alias rules
 * ran in validation), puts the RateLimit-* headers of that take on the answer, and removes field
 * suggestions from live tenants' errors.
 */
export function operationLimitsPlugin(schema: GraphQLSchema): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {

        async didResolveOperation({ document, operationName, request, contextValue, response }) {
          // The first token was taken when the request arrived (http/rate-limit.ts).
          const verdict = await chargeOperation({ schema, document, operationName: operationName ?? undefined, variables: request.variables, ctx: contextValue, prepaid: 1 });
          if (!verdict) return;
          writeRateLimitHeaders(verdict, (name, value) => response.http.headers.set(name, String(value)));
          if (!verdict.allowed) throw rateLimitedError(verdict);
        },
        async willSendResponse({ contextValue, response }) {
          if (response.body.kind !== "single" || !response.body.singleResult.errors || !hidesSuggestions(contextValue)) return;
          response.body.singleResult = { ...response.body.singleResult, errors: errorsForCaller(response.body.singleResult.errors, contextValue) };
        },
      };
    },
  };
}
