import type { FastifyReply, FastifyRequest } from "fastify";
import { GraphQLError, getVariableValues } from "graphql";
import Negotiator from "negotiator";
import { writeRateLimitHeaders } from "../rate-limits/headers";
import { RecentMap } from "../recent-map";
import type { formatGraphQLError } from "./format-error";
import { chargeOperation, errorsForCaller } from "./operation-limits";
import { partyOf } from "./party-caches";
import type { PreparedOperations } from "./prepared-operations";
import { refusedAnswer } from "./refused-answer";
import { OfferAnswers, offerIdsOf } from "./offer-answers";
import { tenantScope } from "../context/request-context";

/** Every GraphQL answer is for one caller's key, so none may be cached (set by both pipelines). */
export const GRAPHQL_CACHE_CONTROL = "no-store";

/** Apollo Server's response types for a single result (its `MEDIA_TYPES`). */
const APPLICATION_JSON = "application/json; charset=utf-8";
const GRAPHQL_RESPONSE_JSON = "application/graphql-response+json; charset=utf-8";
const SUBSCRIPTION_CALLBACK = "application/json; callbackSpec=1.0; charset=utf-8";

interface OperationRequest {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/**
 * The request as Apollo Server reads a POST body, when it is an ordinary operation. Anything
 * else (a persisted-query extension, a misshapen field) is Apollo's to answer.
 */
function operationRequest(body: unknown): OperationRequest | null {
  if (typeof body !== "object" || body === null) return null;
  const { query, operationName, variables, extensions } = body as Record<string, unknown>;
  if (typeof query !== "string" || extensions != null) return null;
  if (operationName != null && typeof operationName !== "string") return null;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) return null;
  return { query, operationName: operationName ?? undefined, variables: (variables ?? undefined) as Record<string, unknown> | undefined };
}

const negotiatedTypes = new RecentMap<string, string | null>(100);

/** The content type Apollo would answer with for this Accept header, or null where it would not answer JSON. */
function responseContentType(accept: string | undefined): string | null {
  if (!accept) return APPLICATION_JSON;
  let type = negotiatedTypes.get(accept);
  if (type === undefined) {
    const preferred = new Negotiator({ headers: { accept } }).mediaType([APPLICATION_JSON, GRAPHQL_RESPONSE_JSON, SUBSCRIPTION_CALLBACK]);
    type = preferred === APPLICATION_JSON || preferred === GRAPHQL_RESPONSE_JSON ? preferred : null;
    negotiatedTypes.set(accept, type);
  }
  return type;
}

/**
 * Answers a POST /graphql whose operation Apollo has accepted before (prepared-operations.ts),
 * byte for byte as Apollo would, and returns the body; returns null, having sent and charged
 * nothing, for anything Apollo must answer itself: a document not seen yet, variables that do
 * not fit (Apollo's 400), an operation over the cost limit, one that cannot be priced or one
 * refused by the rate limiter (the limits plugin refuses those there), or an Accept header that
 * wants something else than JSON.
 * What runs here is the execution: the same resolvers, context, limits and error formatting.
 */
export function preparedAnswerer(prepared: PreparedOperations, formatError: ReturnType<typeof formatGraphQLError>) {
  const { schema } = prepared;
  const offerAnswers = new OfferAnswers();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string | null> => {
    const ctx = request.ctx;
    const operation = request.method === "POST" && ctx ? operationRequest(request.body) : null;
    if (!ctx || !operation) return null;
    const contentType = responseContentType(request.headers.accept);
    const plan = contentType && prepared.lookup(partyOf(ctx), operation.query, operation.operationName);
    if (!plan) return null;
    const { variables } = operation;
    if (plan.operation.variableDefinitions?.length && "errors" in getVariableValues(schema, plan.operation.variableDefinitions, variables ?? {}, { maxErrors: 1 })) return null;
    let verdict;
    try {
      verdict = await chargeOperation({ schema, document: plan.document, operationName: operation.operationName, variables, ctx, prepaid: 1 });
    } catch (error) {
      if (error instanceof GraphQLError) return null;
      throw error;
    }
    if (verdict && !verdict.allowed) return null;
    if (verdict) writeRateLimitHeaders(verdict, (name, value) => reply.header(name, value));
    reply.header("cache-control", GRAPHQL_CACHE_CONTROL).header("content-type", contentType);
    const answerKey = offerAnswers.keyFor(plan.document, plan.operation, operation.query, variables, ctx);
    const kept = answerKey && (await offerAnswers.get(answerKey, ctx));
    if (kept) return kept;
    const result = await plan.compiled.query(undefined, ctx, variables);
    const errors = result.errors && errorsForCaller(result.errors.map((error) => formatError(error.toJSON(), error)), ctx);
    const refused = refusedAnswer(errors);
    if (refused) {
      reply.code(refused.status);
      if (refused.retryAfterSeconds !== undefined) reply.header("retry-after", String(refused.retryAfterSeconds));
    }
    // Apollo's field order, and its trailing newline.
    const body = JSON.stringify({ errors, data: result.data, extensions: result.extensions }) + "\n";
    if (answerKey && !result.errors) {
      const until = ctx.services.offers.readsUnchangedUntil(tenantScope(ctx), offerIdsOf(plan.operation, variables));
      if (until !== null) offerAnswers.set(answerKey, body, until);
    }
    return body;
  };
}
