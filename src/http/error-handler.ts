import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, appError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalogue";
import { graphqlErrorExtensions, restErrorBody } from "../errors/render-error";
import type { Logger } from "../logger";

/** Fastify's own request errors, as catalogue codes. Anything else is a 500. */
const FRAMEWORK_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_EMPTY_JSON_BODY: "invalid_json",
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_json",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "validation_failed",
  FST_ERR_VALIDATION: "validation_failed",
  FST_ERR_BAD_URL: "validation_failed",
};

function catalogued(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as Partial<FastifyError> | null)?.code;
  const mapped = code ? FRAMEWORK_ERRORS[code] : undefined;
  if (mapped) return appError(mapped);
  const status = (error as Partial<FastifyError> | null)?.statusCode;
  // Any other client error the framework raises before our code runs is still the client's.
  if (typeof status === "number" && status >= 400 && status < 500) return appError("validation_failed");
  return appError("internal_server_error");
}

/** Sends a catalogued error in the shape of the interface the request was for. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const retryAfter = error.details.retryAfterSeconds;
  if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
  reply.code(error.status);
  if (request.url.startsWith("/graphql")) {
    return reply.send({ errors: [{ message: error.message, extensions: graphqlErrorExtensions(error) }] });
  }
  return reply.send(restErrorFor(request, error));
}

/** The REST error body for this request: the environment is the tenant's in scope, if any. */
export function restErrorFor(request: FastifyRequest, error: AppError) {
  const principal = request.ctx?.principal;
  const environment = request.ctx?.scope?.tenant.environment ?? (principal?.kind === "tenant" ? principal.environment : null);
  return restErrorBody(error, { requestId: request.id, environment });
}

/**
 * Errors Fastify's router raises before any hook has run (a malformed percent-encoding in the
 * path): answered from the catalogue too, with the request id.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header("x-request-id", request.id);
  return sendError(request, reply, catalogued(error));
}

/** Every error and unknown route leaves in the catalogue's shape; a 500 never shows its cause. */
export function registerErrorHandling(app: FastifyInstance, log: Logger): void {
  app.setErrorHandler((error, request, reply) => {
    const appErr = catalogued(error);
    if (appErr.status >= 500) log.error({ err: error, requestId: request.id }, "request failed");
    return sendError(request, reply, appErr);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, appError("route_not_found")));
}
