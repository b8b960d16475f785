import { AppError } from "./app-error";
import { errorCatalogue, isRetryable, upperSnake } from "./catalogue";

export const API_VERSION = "1.0.0";

export interface ErrorRenderContext {
  requestId: string;
  environment: "sandbox" | "live" | null;
}

/**
 * The REST error body: both interface variants' fields at once (docs/errors.md#the-rest-error-body), so a client
 * written against either reads what it expects.
 */
export function restErrorBody(error: AppError, context: ErrorRenderContext) {
  const { field, reason, requiredPermission } = error.details;
  return {
    errors: [{ code: error.code, message: error.message, ...(field === undefined ? {} : { field }) }],
    success: false as const,
    statusCode: error.status,
    errorCode: upperSnake(error.code),
    message: error.message,
    fault: error.status >= 500 ? "server" : "client",
    retryable: isRetryable(error.code),
    suggestedAction: error.details.action ?? errorCatalogue[error.code].action,
    reason: reason ?? error.message,
    environment: context.environment,
    apiVersion: API_VERSION,
    requestId: context.requestId,
    ...(requiredPermission === undefined ? {} : { requiredPermission }),
  };
}

/** The `extensions` of a GraphQL error for the same catalogued error. */
export function graphqlErrorExtensions(error: AppError) {
  const { field, reason, requiredPermission, retryAfterSeconds } = error.details;
  return {
    code: error.code,
    statusCode: error.status,
    retryable: isRetryable(error.code),
    ...(field === undefined ? {} : { field }),
    ...(reason === undefined ? {} : { reason }),
    ...(requiredPermission === undefined ? {} : { requiredPermission }),
    // Over WebSocket there is no Retry-After header to carry it.
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

/** Any thrown value as a catalogued error; unknown ones become a bare 500 with no detail. */
export function asAppError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError("internal_server_error");
}
