import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from "graphql";
import type { RequestContext } from "../context/request-context";
import { AppError, appError } from "../errors/app-error";
import { chargeOperation, hidesSuggestions, rateLimitedError } from "./operation-limits";
import { jsonBodyProblem } from "../validation/json-body-problem";
import { GRAPHQL_LIMITS, limitError, limitRules, selectionSetTooWide, tokenLimitError } from "./query-limits";

export interface WsOperationPayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** A parse or validation error as a catalogued one. */
function requestError(error: GraphQLError): GraphQLError {
  if (error.originalError instanceof AppError) return error;
  return limitError(tokenLimitError(error.message) ?? appError("validation_failed", { message: error.message }), error.nodes);
}

/**
 * A graphql-ws operation under the same limits as over HTTP: the token limit while parsing, the
 * width of selection sets before validating, GraphQL's rules plus depth and aliases, then the cost limit, and the operation's rate-limit
 * tokens (all of them: a WebSocket message took none on arrival). Returns the arguments to run
 * it with (graphql-ws adds the context), or the errors to answer.
 */
export async function prepareWsOperation(schema: GraphQLSchema, payload: WsOperationPayload, ctx: RequestContext): Promise<Omit<ExecutionArgs, "contextValue"> | GraphQLError[]> {
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return [requestError(error)];
    throw error;
  }
  const tooWide = selectionSetTooWide(document);
  if (tooWide) return [limitError(tooWide)];
  const invalid = validate(schema, document, [...specifiedRules, ...limitRules], { hideSuggestions: hidesSuggestions(ctx) });
  if (invalid.length > 0) return invalid.map(requestError);
  const operationName = payload.operationName ?? undefined;
  const variables = payload.variables ?? undefined;
  // The check the JSON body parser makes over HTTP (U+0000, nesting), which a WebSocket message skips.
  const problem = jsonBodyProblem({ variables }, true);
  if (problem !== null) return [limitError(appError("validation_failed", { field: problem.field, message: `${problem.field}: ${problem.reason}` }))];
  try {
    const verdict = await chargeOperation({ schema, document, operationName, variables, ctx, prepaid: 0 });
    if (verdict && !verdict.allowed) return [rateLimitedError(verdict)];
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  return { schema, document, operationName, variableValues: variables };
}
