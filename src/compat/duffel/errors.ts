import { AppError, appError } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/catalogue";

/**
 * Errors on the Duffel-compatible surface (docs/duffel-compatible.md#errors): Duffel's shape,
 * `{ errors: [{ type, title, message, code, documentation_url }], meta: { status, request_id } }`,
 * with our catalogue's codes, so a `DuffelError` in the client carries what /v1 would have said.
 */

/** Duffel's error `type`, from the catalogued status (and a supplier's own failures). */
function errorType(error: AppError): string {
  if (error.code === "supplier_error" || error.code === "supplier_timeout" || error.code === "price_changed") return "airline_error";
  if (error.status === 401 || error.status === 403) return "authentication_error";
  if (error.status === 429) return "rate_limit_error";
  if (error.status >= 500) return "api_error";
  if (error.status === 400) return "validation_error";
  if (error.status === 404) return "invalid_request_error";
  return "invalid_state_error";
}

/** The title Duffel shows above the message: the code in words. */
const title = (code: ErrorCode) => {
  const words = code.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function duffelErrorBody(error: AppError, requestId: string) {
  const { field, reason } = error.details;
  const message = reason ?? error.message;
  return {
    errors: [
      {
        type: errorType(error),
        code: error.code,
        title: title(error.code),
        message: field === undefined || message.includes(field) ? message : `${field}: ${message}`,
        documentation_url: `/docs/errors#${error.code}`,
        ...(field === undefined ? {} : { source: { field } }),
      },
    ],
    meta: { status: error.status, request_id: requestId },
  };
}

/** A Duffel product with no counterpart here: 404 saying so. */
export function unsupportedResource(path: string): AppError {
  return appError("route_not_found", {
    reason: `${path} is a Duffel product Aerogate does not offer on its Duffel-compatible surface (docs/duffel-compatible.md#what-answers-404).`,
  });
}
