import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DatabaseAvailability } from "../db/availability";
import { AppError, appError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalogue";
import { graphqlErrorExtensions, restErrorBody } from "../errors/render-error";
import { newRequestId } from "../ids";
import type { Logger } from "../logger";
import { logAnswer } from "./access-log";
import { routedPath } from "./routed-path";

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
  if (routedPath(request) === "/graphql") {
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
  const sent = sendError(request, reply, catalogued(error));
  // The router answered before the hooks ran, the access log's among them.
  logAnswer(request, reply);
  return sent;
}

/** What Node's HTTP parser refuses before there is a request, as catalogue codes; anything else is malformed HTTP. */
const CLIENT_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: "request_headers_too_large",
  ERR_HTTP_REQUEST_TIMEOUT: "request_timeout",
};

/**
 * Requests Node refuses before Fastify sees them (a URL and headers over Node's 16 KB, a request
 * too slow to arrive, bytes that are not HTTP): answered on the socket in the catalogue's shape
 * with a request id, logged, and the connection closed, as Node's own answer would close it.
 */
export function answerClientError(log: Logger) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const refusal = appError(CLIENT_ERRORS[error.code ?? ""] ?? "malformed_http_request");
    const requestId = newRequestId();
    const body = JSON.stringify(restErrorBody(refusal, { requestId, environment: null }));
    log.info({ requestId, status: refusal.status, reason: error.code }, "request refused before routing");
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/**
 * Every error and unknown route leaves in the catalogue's shape; a 500 never shows its cause. A
 * request the database could not serve (unreachable, or no room to write) is refused with 503
 * or 507 and Retry-After, counted by `availability` (which logs the outage) and not logged on
 * its own.
 */
export function registerErrorHandling(app: FastifyInstance, log: Logger, availability: DatabaseAvailability): void {
  app.setErrorHandler((error, request, reply) => {
    const refusal = availability.refusal(error);
    if (refusal) return sendError(request, reply, refusal);
    const appErr = catalogued(error);
    if (appErr.status >= 500) log.error({ err: error, requestId: request.id }, "request failed");
    return sendError(request, reply, appErr);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, appError("route_not_found")));
}
